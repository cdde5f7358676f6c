import { z } from 'zod';

/** A yes/no that arrives as a JSON boolean (MCP, bodies) or as 1/0/true/false in a query string. */
export const flag = z
  .union([z.boolean(), z.enum(['1', '0', 'true', 'false'])])
  .transform((v) => v === true || v === '1' || v === 'true');

/** An integer that may arrive as a query-string number. */
export const int = z.union([z.number().int(), z.string().regex(/^-?\d+$/, 'an integer').transform(Number)]);

/** A tool's success answer: ok true and the fields it names, no others. */
export const answer = <S extends z.ZodRawShape>(shape: S) => z.strictObject({ ok: z.literal(true), ...shape });

/** sha256, as 64 lowercase hex digits. */
export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/** A moment as an ISO 8601 UTC timestamp. */
export const IsoTime = z.iso.datetime();

/** A moment in unix seconds. */
export const UnixS = z.number().int();

/** An EVM address, 0x-prefixed. */
export const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
