import fc from 'fast-check';

/** A JSON Schema as zod writes it into /openapi.json and tools/list (the parts the fuzzer reads). */
export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
}

/** Keys that a lookup on a plain object would find on its prototype. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];

/** Strings a careless or hostile client sends: empty, huge, control and astral characters, escapes, prototype names. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', '\u0000', '\u202e', '😀'.repeat(40), '%zz', '%', '../..', 'null', 'NaN', '1e309', '-1', ...PROTOTYPE_KEYS),
  fc.string({ unit: 'grapheme', maxLength: 64 }),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n)),
);

/** JSON text of an object of `n` keys: a body that costs whatever walks it, and an error listing it, per key. */
export const manyKeys = (n: number): string => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`;

/** JSON text nested `depth` levels deep, in arrays or objects, written out rather than built (a value that deep is slow to make). */
export const deepText = (depth: number, inObject: boolean): string => (inObject ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}1${']'.repeat(depth)}`);

/** Bodies that cost by their shape, not their size: many keys (up to 300,000), nesting up to a million deep. */
export const bombText: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 1_025, max: 300_000 }).map(manyKeys),
  fc.integer({ min: 17, max: 1_000_000 }).chain((d) => fc.boolean().map((o) => deepText(d, o))),
);

/** A value nested `depth` levels deep, in arrays or objects. */
const nested = (depth: number, inObject: boolean): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = inObject ? { a: v } : [v];
  return v;
};

/** Any JSON value of an odd kind: wrong types, edge numbers, deep nesting, objects carrying prototype keys. */
export const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  oddString,
  fc.constantFrom(null, true, false, 0, -0, -1, 0.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 53, 1e-320),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxLength: 5 }),
  fc.integer({ min: 20, max: 3_000 }).chain((d) => fc.boolean().map((o) => nested(d, o))),
  fc.constantFrom(...PROTOTYPE_KEYS).map((k) => JSON.parse(`{"${k}": {"polluted": true}}`) as unknown),
  fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), { maxKeys: 4 }),
);

const types = (s: Schema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** Values that fit the schema (or nearly: bounds are respected when the schema gives them). */
export function fitting(s: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => fitting(a, depth + 1)));
  const kind = types(s)[0];
  switch (kind) {
    case 'string':
      if (s.format === 'date-time') return fc.date({ min: new Date('2020-01-01'), max: new Date('2026-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 24, 24) });
    case 'integer':
      return fc.integer({ min: Math.max(s.minimum ?? -1e6, -1e9), max: Math.min(s.maximum ?? 1e6, 1e9) });
    case 'number':
      return fc.double({ min: Math.max(s.minimum ?? -1e6, -1e9), max: Math.min(s.maximum ?? 1e6, 1e9), noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 4 ? fc.constant([]) : fc.array(fitting(s.items ?? {}, depth + 1), { maxLength: 3 });
    case 'object':
      return depth > 4 ? fc.constant({}) : objectOf(s, depth);
    default:
      return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.constant(null));
  }
}

function objectOf(s: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = s.properties ?? {};
  const required = new Set(s.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(props)) model[k] = fitting(v, depth + 1);
  return fc.record(model, { requiredKeys: [...required].filter((k) => k in model) });
}

/** One change that makes a fitting object wrong: a field dropped, a field of the wrong kind, an extra or prototype key. */
export function mutated(s: Schema): fc.Arbitrary<unknown> {
  const keys = Object.keys(s.properties ?? {});
  const base = fitting(s) as fc.Arbitrary<Record<string, unknown>>;
  const wrongField = keys.length
    ? fc.tuple(base, fc.constantFrom(...keys), oddValue).map(([b, k, v]) => ({ ...b, [k]: v }))
    : base;
  const dropped = keys.length
    ? fc.tuple(base, fc.constantFrom(...keys)).map(([b, k]) => Object.fromEntries(Object.entries(b ?? {}).filter(([x]) => x !== k)))
    : base;
  const extra = fc.tuple(base, fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 12 })), oddValue).map(([b, k, v]) => {
    const out: Record<string, unknown> = { ...b };
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    return out;
  });
  return fc.oneof(base, wrongField, dropped, extra, oddValue);
}
