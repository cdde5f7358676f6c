/**
 * Shared schemas, stated once: every shape the document states in more than one place (a script block in a forge's
 * body, its answer and the studio's state; a series in each answer that shows one) becomes one named entry of
 * components.schemas that each place refers to. A place's own description of a shared shape stays beside its
 * reference, as JSON Schema 2020-12 allows. A shape is named for what it is: one of the deck's named types
 * (core/schemas.ts), its form where it says nothing more (IntegerOrNull), or the place it was met first
 * (`forge.body.script`).
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Schema = { [key: string]: Json };

const REF = '#/components/schemas/';
/** What a reference costs beyond its name: `{"$ref":"#/components/schemas/"}`. */
const REF_COST = JSON.stringify({ $ref: REF }).length;

/** A name's length, for the cost of its references before it is chosen: most are a word or two. */
const NAME_GUESS = 10;
/**
 * Whether a shape of `size` bytes met `count` times is shorter stated once and referred to: its body and name once,
 * a reference at each place, against the shape written out at each. It depends on the shape alone, so every place
 * of a shape is decided alike.
 */
const pays = (size: number, count: number): boolean => count >= 2 && size + NAME_GUESS + 3 + count * (REF_COST + NAME_GUESS) < count * size;

/** A name as components are named: order_place, fill -> OrderPlace, Fill. */
const pascal = (name: string): string => name.replace(/(^|[_-])([a-z0-9])/g, (_, _sep: string, c: string) => c.toUpperCase());

/** A shape as text, less its own description: how a place's schema is matched to one of the deck's named types. */
const bareText = (s: Record<string, unknown>): string => {
  const { description: _own, ...bare } = s;
  return JSON.stringify(bare);
};

/**
 * The name of a shape that is one of the deck's named types (`known`, by their text: Address, Sha256Hex), or that says
 * nothing of what it holds beyond those and its form (no enum, const, pattern, bounds or properties): IntegerOrNull,
 * StringList, Sha256HexOrNull. Such a shape serves unrelated fields (a cursor, a count, an epoch), so the name of the
 * field it was first met under would mislead. Null for a shape with a meaning of its own.
 */
function formName(s: Schema, known: ReadonlyMap<string, string>): string | null {
  const own = known.get(bareText(s));
  if (own !== undefined) return own;
  const { description: _own, ...bare } = s;
  const keys = Object.keys(bare);
  const members = bare.anyOf ?? bare.oneOf;
  if (Array.isArray(members) && keys.length === 1) {
    const names = members.map((m) => (isSchema(m) ? formName(m, known) : null));
    return names.every((n): n is string => n !== null) ? names.join('Or') : null;
  }
  // Any object: z.record(z.string(), z.unknown()) says only that its keys are strings, as JSON's are.
  const anyObject = bare.type === 'object' && JSON.stringify(bare.propertyNames) === '{"type":"string"}' && JSON.stringify(bare.additionalProperties) === '{}';
  if (anyObject && keys.length === 3) return 'Object';
  if (!keys.every((k) => k === 'type' || k === 'format' || k === 'items')) return null;
  const types = Array.isArray(bare.type) ? bare.type : [bare.type];
  if (types.length === 0 || !types.every((t): t is string => typeof t === 'string')) return null;
  if (types.includes('array') !== isSchema(bare.items) || (typeof bare.format === 'string' && types.length > 1)) return null;
  const one = (t: string): string | null => {
    if (t !== 'array') return pascal(typeof bare.format === 'string' ? bare.format : t);
    const item = formName(bare.items as Schema, known);
    return item === null ? null : `${item}List`;
  };
  const names = types.map(one);
  return names.every((n): n is string => n !== null) ? names.join('Or') : null;
}

const isSchema = (x: Json | undefined): x is Schema => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * A schema with each of its subschemas replaced by `f(sub, step)`, step naming the subschema as a path would: a
 * property's name, `item` for an array's items, the keyword and index of a combination's member.
 */
function mapSubschemas(s: Schema, f: (sub: Schema, step: string) => Json): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(s)) {
    if ((key === 'properties' || key === 'patternProperties') && isSchema(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, isSchema(sub) ? f(sub, name) : sub]));
    } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf' || key === 'prefixItems') && Array.isArray(value)) {
      out[key] = value.map((sub, i) => (isSchema(sub) ? f(sub, `${key}${i}`) : sub));
    } else if ((key === 'items' || key === 'additionalProperties' || key === 'not' || key === 'propertyNames' || key === 'contains') && isSchema(value)) {
      out[key] = f(value, key === 'items' ? 'item' : key);
    } else out[key] = value;
  }
  return out;
}

/**
 * The shapes of a document's schemas: an id per distinct shape (less its own description), its size, how often it
 * occurs and the descriptions it occurs with.
 */
class Shapes {
  private readonly ids = new Map<string, number>();
  private readonly known = new WeakMap<Schema, { id: number; size: number }>();
  readonly seen = new Map<number, number>();
  private readonly described = new Map<number, Set<Json | undefined>>();

  /** The one description every occurrence of a shape carries, if they all carry the same. */
  sameDescription(id: number): string | undefined {
    const all = [...(this.described.get(id) ?? [])];
    return all.length === 1 && typeof all[0] === 'string' ? all[0] : undefined;
  }

  measure(s: Schema): { id: number; size: number } {
    let m = this.known.get(s);
    if (m) return m;
    let size = 0;
    const { description: _own, ...bare } = s;
    const text = JSON.stringify(
      mapSubschemas(bare, (sub) => {
        const inner = this.measure(sub);
        size += inner.size;
        return `\u0000${inner.id}`;
      }),
    );
    let id = this.ids.get(text);
    if (id === undefined) this.ids.set(text, (id = this.ids.size));
    m = { id, size: size + text.length };
    this.known.set(s, m);
    this.seen.set(id, (this.seen.get(id) ?? 0) + 1);
    if (!this.described.has(id)) this.described.set(id, new Set());
    this.described.get(id)!.add(s.description);
    return m;
  }
}

/** Where a schema sits in the document: read it, write it, and the name its place suggests. */
interface Place {
  schema: Schema;
  put(s: Schema): void;
  name: string;
}

type Operation = {
  operationId?: string;
  parameters?: { name: string; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};

/** Every schema of the paths: parameters, request bodies and responses. */
function placesOf(paths: Record<string, Record<string, unknown>>): Place[] {
  const places: Place[] = [];
  const at = (holder: { schema?: Schema }, name: string) => {
    if (holder.schema) places.push({ schema: holder.schema, put: (s) => void (holder.schema = s), name });
  };
  for (const [path, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops) as [string, Operation][]) {
      const id = op.operationId ?? `${method}${path.replace(/[{}]/g, '').replaceAll('/', '.')}`;
      for (const p of op.parameters ?? []) at(p, `${id}.${p.name}`);
      for (const c of Object.values(op.requestBody?.content ?? {})) at(c, `${id}.body`);
      for (const [status, r] of Object.entries(op.responses ?? {})) for (const c of Object.values(r.content ?? {})) at(c, status.startsWith('2') ? `${id}.answer` : `${id}.${status}`);
    }
  }
  return places;
}

/**
 * Components that are one shape under several names (a recursive shape each route's schema defined for itself, which
 * refers to itself by its own name) become one, named for the first; every reference follows.
 */
function mergeSameComponents(doc: { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, Schema> } }): void {
  const first = new Map<string, string>();
  const renamed = new Map<string, string>();
  for (const [name, body] of Object.entries(doc.components.schemas)) {
    const shape = JSON.stringify(body).replaceAll(`"${REF}${name}"`, '"#self"');
    const kept = first.get(shape);
    if (kept === undefined) first.set(shape, name);
    else renamed.set(name, kept);
  }
  // A definition zod named (an id, not a generated __schemaN) keeps that name once it stands alone.
  for (const kept of first.values()) {
    const own = kept.slice(kept.lastIndexOf('.') + 1);
    if (own !== kept && !/^__schema\d+$/.test(own) && !(own in doc.components.schemas)) renamed.set(kept, own);
  }
  for (const [name, to] of renamed) if (!renamed.has(to)) doc.components.schemas[to] = doc.components.schemas[name]!;
  for (const name of renamed.keys()) delete doc.components.schemas[name];
  const last = (name: string): string => (renamed.has(name) ? last(renamed.get(name)!) : name);
  const follow = (text: string) => text.replace(/"#\/components\/schemas\/([^"]+)"/g, (_, name: string) => `"${REF}${last(name)}"`);
  doc.paths = JSON.parse(follow(JSON.stringify(doc.paths))) as typeof doc.paths;
  doc.components.schemas = JSON.parse(follow(JSON.stringify(doc.components.schemas))) as Record<string, Schema>;
}

/** Shares the document's repeated shapes as named components, in place; `named` are the deck's own named types. */
export function shareSchemas(doc: { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, Schema> } }, named: Record<string, Record<string, unknown>> = {}): void {
  const known = new Map(Object.entries(named).map(([name, s]) => [bareText(s), name]));
  mergeSameComponents(doc);
  const places = placesOf(doc.paths);
  const given = doc.components.schemas;
  const shapes = new Shapes();
  for (const s of [...places.map((p) => p.schema), ...Object.values(given)]) shapes.measure(s);

  const names = new Map<number, string>();
  const bodies = new Map<string, Schema>();
  /** Each shared shape as it was met first: put back where it ends up referred to from one place only. */
  const firsts = new Map<string, Schema>();
  const taken = new Set(Object.keys(given));
  /**
   * The shortest free name for a shape met at a place: a place's whole schema is named for its operation and role
   * (RunStartAnswer), a part for its property (Verdict), then with its parents' (StopDistance, MarksItem).
   */
  const nameFor = (path: string, root: boolean): string => {
    const parts = path.split('.');
    const steps = parts.map(pascal);
    // An array's item or a combination's member says little alone: it starts from its parent's name.
    const least = /^(item|(anyOf|oneOf|allOf|prefixItems)\d+)$/.test(parts.at(-1)!) ? 2 : 1;
    const tries = root ? [steps.join('')] : [least, least + 1, least + 2].map((n) => steps.slice(-n).join(''));
    let name = [...tries, path].find((t) => !taken.has(t));
    for (let n = 2; name === undefined; n++) if (!taken.has(`${path}.${n}`)) name = `${path}.${n}`;
    taken.add(name);
    return name;
  };
  /** A shape's name: its type's or its form's where it says nothing more (Sha256Hex, IntegerOrNull), else its place's. */
  const namedFor = (s: Schema, path: string, root: boolean): string => {
    const form = formName(s, known);
    if (form === null || taken.has(form)) return nameFor(path, root);
    taken.add(form);
    return form;
  };
  const share = (s: Schema, name: string, whole: boolean, root = false): Schema => {
    // A schema of a JSON Schema document (its properties name $id) is written out whole: resolvers read a $id key as
    // a base address wherever it sits, and a reference under it would resolve against that.
    if (isSchema(s.properties) && '$id' in s.properties) return s;
    const { id, size } = shapes.measure(s);
    // A description every place gives the shape is the shape's own: stated once, in its body.
    const same = shapes.sameDescription(id);
    const count = shapes.seen.get(id) ?? 0;
    if (whole || !pays(size + (same === undefined ? 0 : same.length + 16), count)) {
      return mapSubschemas(s, (sub, step) => share(sub, `${name}.${step}`, false));
    }
    let at = names.get(id);
    if (at === undefined) {
      at = namedFor(s, name, root);
      names.set(id, at);
      firsts.set(at, s);
      const { description: _own, ...bare } = s;
      bodies.set(at, mapSubschemas(same === undefined ? bare : s, (sub, step) => share(sub, `${at}.${step}`, false)));
    }
    return typeof s.description === 'string' && same === undefined ? { description: s.description, $ref: `${REF}${at}` } : { $ref: `${REF}${at}` };
  };
  for (const p of places) p.put(share(p.schema, p.name, false, true));
  const schemas: Record<string, Schema> = {};
  for (const [name, s] of Object.entries(given)) schemas[name] = share(s, name, true);
  for (const [name, body] of bodies) schemas[name] = body;

  // A shape met many times inside one shared shape alone is referred to once: written out there again.
  const refs = new Map<string, number>();
  for (const m of JSON.stringify([doc.paths, schemas]).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) refs.set(m[1]!, (refs.get(m[1]!) ?? 0) + 1);
  const once = new Set([...bodies.keys()].filter((name) => refs.get(name) === 1));
  const inline = (s: Schema): Schema => {
    const name = typeof s.$ref === 'string' && s.$ref.startsWith(REF) ? s.$ref.slice(REF.length) : null;
    if (name === null || !once.has(name)) return mapSubschemas(s, inline);
    const body = inline(bodies.get(name)!);
    return Object.fromEntries(Object.keys(firsts.get(name)!).map((key) => [key, key === 'description' ? (s.description ?? body.description)! : body[key]!]));
  };
  for (const name of once) delete schemas[name];
  for (const p of placesOf(doc.paths)) p.put(inline(p.schema));
  doc.components.schemas = Object.fromEntries(Object.entries(schemas).map(([name, s]) => [name, inline(s)]));
}
