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

/** The forms a time of a tool's input takes, as its refusal and its description say them. */
export const TIME_FORMS = 'unix seconds (an integer) or an ISO-8601 UTC time (2013-10-08T13:30:00Z)';
const isoUtc = z.iso.datetime({ offset: false });

/**
 * A moment a tool's input takes: unix seconds, or an ISO-8601 UTC string (…Z), read as unix seconds (floored). The
 * string is checked here rather than by a string format, so the listed JSON Schema stays two bare types.
 */
export const unixTime = z
  .union([int, z.string()], { error: `expected ${TIME_FORMS}` })
  .transform((v, c) => {
    if (typeof v === 'number') return v;
    if (isoUtc.safeParse(v).success) return Math.floor(Date.parse(v) / 1000);
    c.issues.push({ code: 'custom', input: v, message: `expected ${TIME_FORMS}, not ${JSON.stringify(v.slice(0, 40))}` });
    return z.NEVER;
  });
