import { z } from 'zod';

/**
 * A yes or no, and a whole number: what agents are shown. A query string's text becomes one in the REST binding
 * (rest/query-input.ts), never here.
 */
export const flag = z.boolean();
export const int = z.number().int();

/** An object with exactly one field per key, each of the value's schema (a map over a fixed list: markets, answers). */
export const keyed = <K extends string, T extends z.ZodType>(keys: readonly K[], value: T) =>
  z.strictObject(Object.fromEntries(keys.map((k) => [k, value])) as Record<K, T>);

/** A tool's success answer: ok true and the fields it names, no others. */
export const answer = <S extends z.ZodRawShape>(shape: S) => z.strictObject({ ok: z.literal(true), ...shape });
