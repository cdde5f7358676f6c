/**
 * zod writes every `.int()` with the safe-integer bounds (minimum -(2^53-1), maximum 2^53-1): they tell a reader of
 * the document only that the value is a JSON integer, which `type: integer` says already, and they were a twentieth
 * of its bytes. The document leaves them out; a bound a schema states itself (minimum 1, maximum 744) stays. MCP's
 * tools/list shows the tools' schemas as zod writes them.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const SAFE = Number.MAX_SAFE_INTEGER;

/** A copy of a JSON value with the safe-integer bounds of its integer schemas left out. */
export function withoutSafeBounds<T>(value: T): T {
  const walk = (x: Json): Json => {
    if (Array.isArray(x)) return x.map(walk);
    if (typeof x !== 'object' || x === null) return x;
    const integer = x.type === 'integer';
    return Object.fromEntries(
      Object.entries(x)
        .filter(([key, v]) => !(integer && ((key === 'minimum' && v === -SAFE) || (key === 'maximum' && v === SAFE))))
        .map(([key, v]) => [key, walk(v)]),
    );
  };
  return walk(value as Json) as T;
}
