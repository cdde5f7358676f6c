import { z } from 'zod';
import { EventStream, JsonBytes, WithImage, WithLinks } from '../services/answers.js';

type Schema = Record<string, unknown>;

/**
 * A tool's output schema as JSON Schema: the answer's JSON body as it leaves the deck (zod's output side, so every
 * object says additionalProperties: false: a field the schema does not name is drift). No $schema: the document it
 * sits in (OpenAPI 3.1, a tools/list) says which dialect it is, and a 2020-12 $schema inside an MCP listing makes a
 * draft-07 validator refuse to compile it.
 */
export function outputJsonSchema(output: z.ZodType): Schema {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(output, { io: 'output', unrepresentable: 'any' }) as Schema;
  // An answer of one of several shapes is still an object, as MCP requires an outputSchema to say at its root.
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  return !schema.type && branches?.every((b) => b.type === 'object') ? { type: 'object', ...schema } : schema;
}

/** The JSON types a property's schema allows, read from its type, its const or the branches of its anyOf. */
function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  if ('const' in schema) return [schema.const === null ? 'null' : Array.isArray(schema.const) ? 'array' : typeof schema.const === 'number' ? 'number' : typeof schema.const];
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  const types = branches?.map(typesOf);
  return types && types.every((t) => t.length) ? [...new Set(types.flat())] : [];
}

/**
 * An output schema as tools/list shows it: the answer's top-level fields and the JSON type of each (a field of one
 * constant value, such as ok: true, says it), and nothing deeper. tools/list is paid for in every model context it is
 * put in, so the listing names what comes back and OpenAPI keeps the whole; every answer still conforms to the outline,
 * as MCP requires of structuredContent. The fields of an answer of several shapes are listed together.
 */
export function outlineOf(schema: Schema): Schema {
  const branches = ((schema.anyOf ?? schema.oneOf) as Schema[] | undefined) ?? [schema];
  const properties: Record<string, Schema> = {};
  for (const branch of branches) {
    for (const [name, field] of Object.entries((branch.properties ?? {}) as Record<string, Schema>)) {
      const types = typesOf(field);
      const shown: Schema = 'const' in field ? { const: field.const } : types.length === 0 ? {} : { type: types.length === 1 ? types[0] : types };
      const before = properties[name];
      // A field two shapes type differently is listed with every type either allows.
      properties[name] = before && JSON.stringify(before) !== JSON.stringify(shown) ? { type: [...new Set([...typesOf(before), ...typesOf(shown)])] } : shown;
    }
  }
  return { type: 'object', properties };
}

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
  if (answer instanceof WithImage || answer instanceof WithLinks) return JSON.parse(JSON.stringify(answer.body));
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
    return new EventStream(checked()) as T;
  }
  const drift = driftOf(output, bodyOf(answer));
  if (drift) throw drifted(drift);
  return answer;
}
