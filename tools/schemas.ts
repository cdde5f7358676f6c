import { z } from 'zod';

/** A yes/no that arrives as a JSON boolean (MCP, bodies) or as 1/0/true/false in a query string. */
export const flag = z
  .union([z.boolean(), z.enum(['1', '0', 'true', 'false'])])
  .transform((v) => v === true || v === '1' || v === 'true');

/** An integer that may arrive as a query-string number. */
export const int = z.union([z.number().int(), z.string().regex(/^-?\d+$/, 'an integer').transform(Number)]);

/** An object with exactly one field per key, each of the value's schema (a map over a fixed list: markets, answers). */
export const keyed = <K extends string, T extends z.ZodType>(keys: readonly K[], value: T) =>
  z.strictObject(Object.fromEntries(keys.map((k) => [k, value])) as Record<K, T>);

/** A tool's success answer: ok true and the fields it names, no others. */
export const answer = <S extends z.ZodRawShape>(shape: S) => z.strictObject({ ok: z.literal(true), ...shape });
