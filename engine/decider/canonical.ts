import { createHash } from 'node:crypto';

/**
 * Canonical JSON: object keys sorted by code unit, no whitespace, arrays in their own order, numbers as
 * JSON.stringify writes them (shortest round-trip form). Undefined fields are left out; a number that is not
 * finite is refused, since JSON cannot carry it and a hash must not depend on how it was dropped.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`canonical JSON has no form for ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    // sort() with no comparison orders strings by code unit. A loop, not callbacks: closures made at each call are
    // compiled again at each call, and a verdict writes a few hundred IRs.
    const object = value as Record<string, unknown>;
    let out = '';
    for (const k of Object.keys(object).sort()) {
      if (object[k] === undefined) continue;
      out += `${out ? ',' : ''}${JSON.stringify(k)}:${canonicalJson(object[k])}`;
    }
    return `{${out}}`;
  }
  throw new TypeError(`canonical JSON has no form for a ${typeof value}`);
}

/** seed_hash: sha256 hex of the canonical IR, a newline, and the version. Same intent, same hash. */
export const seedHash = (ir: unknown, version: string): string =>
  createHash('sha256').update(`${canonicalJson(ir)}\n${version}`).digest('hex');
