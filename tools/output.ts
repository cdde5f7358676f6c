import { z } from 'zod';
import { EventStream, JsonBytes, WithImage } from './answers.js';

type Schema = Record<string, unknown>;

/**
 * A tool's output schema as JSON Schema: the answer's JSON body as it leaves the deck (zod's output side, so every
 * object says additionalProperties: false: a field the schema does not name is drift). No $schema: the document it
 * sits in (OpenAPI 3.1, a tools/list) says which dialect it is, and a 2020-12 $schema inside an MCP listing makes a
 * draft-07 validator refuse to compile it.
 */
export function outputJsonSchema(output: z.ZodType): Schema {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(output, { io: 'output', unrepresentable: 'any' }) as Schema;
  return schema;
}

/** Words for people, not rules for a validator: what the compact listing leaves out. */
const WORDS = new Set(['description', 'title', 'examples']);

/**
 * A JSON Schema without its words (description, title, examples), as tools/list shows an output schema: every rule
 * stays, so a client still validates an answer against it; OpenAPI keeps the whole. A property named like a word
 * (a field called description) is a property, kept.
 */
export function withoutWords(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutWords);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (WORDS.has(key)) continue;
    // Maps of names to schemas: the names are data, each value a schema.
    out[key] = key === 'properties' || key === '$defs' || key === 'patternProperties' ? mapValues(value, withoutWords) : withoutWords(value);
  }
  return out;
}

const mapValues = (o: unknown, f: (v: unknown) => unknown) =>
  typeof o === 'object' && o !== null ? Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v)])) : o;

/** Where an answer's JSON body leaves its schema: the field (dotted path) and what is wrong there; null when it holds. */
export interface Drift {
  field: string;
  message: string;
}

const fieldOf = (path: readonly PropertyKey[]) => (path.length ? path.map(String).join('.') : '(body)');

/**
 * Checks a JSON body against an output schema: every rule of the schema, and no field it does not name (zod strips
 * an unnamed field; the body and what zod kept are walked side by side to find it).
 */
export function driftOf(output: z.ZodType, body: unknown): Drift | null {
  const parsed = output.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { field: fieldOf(issue.path), message: issue.message };
  }
  return strayIn(body, parsed.data, []);
}

function strayIn(body: unknown, kept: unknown, path: PropertyKey[]): Drift | null {
  if (Array.isArray(body) && Array.isArray(kept)) {
    for (let i = 0; i < body.length; i++) {
      const found = strayIn(body[i], kept[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (typeof body !== 'object' || body === null || typeof kept !== 'object' || kept === null) return null;
  for (const [key, value] of Object.entries(body)) {
    if (!Object.hasOwn(kept, key)) return { field: fieldOf([...path, key]), message: 'a field the output schema does not name' };
    const found = strayIn(value, (kept as Record<string, unknown>)[key], [...path, key]);
    if (found) return found;
  }
  return null;
}

/** The JSON body an answer carries, as it goes on the wire (sealed bytes read back, a picture's body). */
export function bodyOf(answer: unknown): unknown {
  if (answer instanceof JsonBytes) return JSON.parse(answer.bytes.toString('utf8'));
  if (answer instanceof WithImage) return JSON.parse(JSON.stringify(answer.body));
  return JSON.parse(JSON.stringify(answer));
}

/**
 * An answer held to its tool's output schema: a drift throws what `drifted` makes of it (the deck's 500), after the
 * check names it. A stream is checked when its whole arrives.
 */
export function heldTo<T>(output: z.ZodType, answer: T, drifted: (d: Drift) => Error): T {
  if (answer instanceof EventStream) {
    const events = answer.events;
    async function* checked() {
      const whole = yield* events;
      const drift = driftOf(output, bodyOf(whole));
      if (drift) throw drifted(drift);
      return whole;
    }
    return new EventStream(checked(), answer.cancel) as T;
  }
  const drift = driftOf(output, bodyOf(answer));
  if (drift) throw drifted(drift);
  return answer;
}
