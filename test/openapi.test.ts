import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAMED_TYPES } from '../rest/openapi.js';
import { REGISTRY } from '../tools/registry.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { grantsFile, legacyClient, namesOf } from './support/mcp.js';

// GET /openapi.json: a valid OpenAPI 3.1.0 document that states every REST route of the registry with its
// security, request schema and the statuses the route really answers, and the MCP tools as x-mcp.tools.
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}
interface Operation {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { content: { 'application/json': { schema: { properties?: Record<string, unknown>; required?: string[] } } } };
  responses: Record<string, unknown>;
}
interface Document {
  openapi: string;
  security: Record<string, string[]>[];
  info: { version: string };
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }>; parameters: Record<string, Parameter> };
  'x-mcp': { endpoint: string; sellers: string[]; tools: string[]; toolsets: Record<string, string[]>; default_toolsets: string[] };
}

let deck: TestDeck;
let grants: string;
let doc: Document;

beforeAll(async () => {
  grants = await grantsFile([{ name: 'openapi_house', tier: 'house' }]);
  // Every call here comes from one address, and one test sends a bearer that does not verify to every route: the
  // login throttle must not rest the address for the tests after it.
  deck = await testDeck({ DECK_GRANTS: grants, DECK_LOGIN_REFUSALS: '1000' });
  const res = await fetch(`${deck.url}/openapi.json`);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = (await res.json()) as Document;
});
afterAll(async () => {
  await deck.stop();
  await rm(dirname(grants), { recursive: true, force: true });
});

const SESSION = [{ deckSession: [] }, { deckKey: [] }];
/** A schema, or the component it refers to: a shape stated in several places is one named component. */
const named = <S extends object>(schema: S): S => {
  const ref = (schema as { $ref?: string }).$ref;
  return ref ? ((doc.components as unknown as { schemas: Record<string, S> }).schemas[ref.replace('#/components/schemas/', '')] ?? schema) : schema;
};
const openapiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
/** An operation's parameters, each read through its reference where it is a shared one (components.parameters). */
const paramsOf = (op: Operation): Parameter[] => (op.parameters ?? []).map((p) => ('$ref' in p ? doc.components.parameters[p.$ref.replace('#/components/parameters/', '')]! : p));

describe('GET /openapi.json', () => {
  it('validates as OpenAPI 3.1 with the real validator, document version 1.0.0', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
  });

  it('states each shape once: a schema met in several places is one named component, every reference resolves', () => {
    const text = JSON.stringify(doc);
    const named = doc.components as unknown as Record<'schemas' | 'responses' | 'parameters', Record<string, unknown>>;
    for (const [, kind, name] of text.matchAll(/"#\/components\/(schemas|responses|parameters)\/([^"]+)"/g)) expect(named[kind as 'schemas' | 'responses' | 'parameters'][name!], `${kind} ${name}`).toBeDefined();
    // A shape (less its own description) inside a schema is written out in more than one place only where referring
    // to one component would not be shorter: its body and a name of ten or so characters once, a reference at each place.
    const shorterShared = (size: number, count: number) => size + 13 + count * JSON.stringify({ $ref: '#/components/schemas/0123456789' }).length < count * size;
    const seen = new Map<string, number>();
    const walk = (x: unknown, inSchema: boolean): void => {
      if (Array.isArray(x)) return x.forEach((y) => walk(y, inSchema));
      if (typeof x !== 'object' || x === null) return;
      const { description: _own, ...bare } = x as Record<string, unknown>;
      const shape = JSON.stringify(bare);
      if (inSchema && ('type' in bare || 'anyOf' in bare || 'oneOf' in bare)) seen.set(shape, (seen.get(shape) ?? 0) + 1);
      for (const [k, v] of Object.entries(x)) walk(v, inSchema || k === 'schema' || k === 'schemas');
    };
    walk(doc, false);
    expect([...seen].filter(([shape, n]) => n > 1 && shorterShared(shape.length, n)).map(([shape]) => shape.slice(0, 120))).toEqual([]);
    // A description every place gives a shared shape is the component's own, stated once.
    expect(doc.paths['/v1/series/{id}']!.post!.responses['200']).toMatchObject({ content: { 'application/json': { schema: { properties: { moved: { $ref: '#/components/schemas/Moved' } } } } } });
    expect(named.schemas.Moved).toMatchObject({ type: 'object', description: 'the state table row the call moved' });
    // A parameter met whole on several operations is one shared parameter, where that is shorter.
    const inline = Object.values(doc.paths).flatMap((methods) => Object.values(methods).flatMap((op) => (op.parameters ?? []).filter((p) => !('$ref' in p)).map((p) => JSON.stringify(p))));
    expect(inline.filter((p, i) => p.length > 100 && inline.indexOf(p) !== i)).toEqual([]);
    expect(doc.paths['/mcp']!.get!.parameters).toEqual([{ $ref: '#/components/parameters/toolsets' }]);
    expect(doc.components.parameters.toolsets).toMatchObject({ name: 'toolsets', in: 'query' });
    // Each refusal is one shared response per status.
    expect(Object.keys(named.responses)).toContain('422');
    expect(doc.paths['/forge']!.post!.responses['422']).toEqual({ $ref: '#/components/responses/422' });
  });

  it("names a shared shape for what it is: one of the deck's own types, or its form where it says nothing more, never a field it served once", () => {
    const schemas = (doc.components as unknown as { schemas: Record<string, Record<string, unknown>> }).schemas;
    const bare = (s: Record<string, unknown>) => {
      const { description: _own, ...rest } = s;
      return JSON.stringify(rest);
    };
    // Every component that is one of the deck's types has that type's name (and each of these is shared).
    const typeOf = new Map(Object.entries(NAMED_TYPES).map(([name, schema]) => [JSON.stringify(schema), name]));
    const misnamed = Object.entries(schemas).filter(([name, body]) => typeOf.has(bare(body)) && typeOf.get(bare(body)) !== name);
    expect(misnamed).toEqual([]);
    for (const name of ['Address', 'Hex32', 'Sha256Hex', 'Market', 'Timeframe']) expect(schemas[name], name).toBeDefined();
    // A shape of types alone serves unrelated fields (a cursor, a count, an epoch): it is named for its form.
    expect(schemas.IntegerOrNull).toEqual({ anyOf: [{ type: 'integer' }, { type: 'null' }] });
    expect(schemas.StringList).toEqual({ type: 'array', items: { type: 'string' } });
    // A parameter's whole schema too: a window's from and to are unix seconds or an ISO time.
    expect(schemas.IntegerOrString).toEqual({ anyOf: [{ type: 'integer' }, { type: 'string' }] });
    expect(schemas.Sha256HexOrNull).toEqual({ anyOf: [{ $ref: '#/components/schemas/Sha256Hex' }, { type: 'null' }] });
    const history = named((doc.paths['/records/history']!.get!.responses['200'] as { content: { 'application/json': { schema: object } } }).content['application/json'].schema) as { properties: Record<string, unknown> };
    expect(history.properties.next).toEqual({ description: 'the cursor of the next page; null on the last', $ref: '#/components/schemas/IntegerOrNull' });
  });

  it("leaves out zod's safe-integer bounds and keeps every bound a schema states itself", () => {
    const text = JSON.stringify(doc);
    expect(text.includes(String(Number.MAX_SAFE_INTEGER)), 'a safe-integer bound in the document').toBe(false);
    // Each other bound the tools' schemas state (minimum 1 with maximum 8192, an exclusiveMinimum 0 paired with the safe maximum) is in the document.
    const bounds = (t: string) => new Set([...t.matchAll(/"(minimum|maximum|exclusiveMinimum|exclusiveMaximum)":(-?[\d.e+]+)/g)].map((m) => m[0]).filter((b) => !b.endsWith(String(Number.MAX_SAFE_INTEGER))));
    const stated = bounds(JSON.stringify(REGISTRY.filter((t) => t.rest).map((t) => [t.inputSchema, t.outputSchema])));
    expect(stated.size).toBeGreaterThan(5);
    expect([...stated].filter((b) => !bounds(text).has(b))).toEqual([]);
    const chat = named(doc.paths['/chat']!.post!.requestBody!.content['application/json'].schema) as { properties: Record<string, unknown> };
    expect(chat.properties.max_tokens).toEqual({ type: 'integer', minimum: 1, maximum: 8192 });
  });

  it('names the two security schemes: the session (cookie, or its value as bearer) and the key as bearer', () => {
    expect(doc.components.securitySchemes.deckSession).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'deck_session' });
    expect(doc.components.securitySchemes.deckKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it.each(REGISTRY.filter((t) => t.rest).map((t) => [`${t.rest!.method} ${t.rest!.path}`, t] as const))(
    'states %s with its security, request schema and statuses',
    (_, tool) => {
      const rest = tool.rest!;
      const op = doc.paths[openapiPath(rest.path)]?.[rest.method.toLowerCase()];
      expect(op).toBeDefined();
      expect(op!.operationId).toBe(tool.name);
      // A session route says nothing of its own: the document's security (a session or a key) is its.
      expect(op!.security ?? doc.security).toEqual(tool.access === 'none' ? [] : tool.access === 'session' ? SESSION : [{}, ...SESSION]);
      if (tool.access === 'session') expect(op!.security).toBeUndefined();
      const fields = Object.keys((tool.inputSchema.properties ?? {}) as Record<string, unknown>).sort();
      const body = rest.method === 'POST' && rest.body !== 'none';
      if (body) {
        // Path parameters are parameters; the rest of the input is the body.
        const inPath = [...rest.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
        const schema = named(op!.requestBody!.content['application/json'].schema);
        expect(Object.keys(schema.properties ?? {}).sort()).toEqual(fields.filter((f) => !inPath.includes(f)));
        expect(schema.required ?? []).toEqual(((tool.inputSchema.required ?? []) as string[]).filter((f) => !inPath.includes(f)));
        expect(paramsOf(op!).map((p) => p.name)).toEqual(inPath);
      } else {
        expect(op!.requestBody).toBeUndefined();
        expect(paramsOf(op!).map((p) => p.name).sort()).toEqual(fields);
      }
      // A path parameter is required; a query parameter says so only when the input requires it (optional is the default).
      const needed = (tool.inputSchema.required ?? []) as string[];
      for (const p of paramsOf(op!)) expect([p.name, p.required ?? false]).toEqual([p.name, p.in === 'path' || needed.includes(p.name)]);
      const statuses = Object.keys(op!.responses);
      expect(statuses).toContain(String(rest.status ?? 200));
      for (const s of rest.errors ?? []) expect(statuses).toContain(String(s));
      if (body) expect(statuses).toContain('400');
      if (tool.access !== 'none') expect(statuses).toContain('401');
    },
  );

  it('states the routes that are not tools: the MCP endpoints, the cards, itself, the metrics and the probes', () => {
    const fixed = { '/mcp': ['get', 'post'], '/mcp/{seller}': ['get', 'post'], '/cards': ['get'], '/cards/{seller}': ['get'], '/.well-known/agent-registration.json': ['get'], '/openapi.json': ['get'], '/metrics': ['get'], '/health': ['get'], '/ready': ['get'] };
    for (const [path, methods] of Object.entries(fixed)) {
      expect(Object.keys(doc.paths[path] ?? {}).sort()).toEqual(methods);
    }
    expect(Object.keys(doc.paths['/mcp']!.post!.responses).sort()).toEqual(['200', '202', '400', '401', '403', '413', '415', '429', '500']);
    expect(Object.keys(doc.paths['/mcp/{seller}']!.post!.responses)).toContain('404');
    // A transport's refusal on an MCP endpoint is a JSON-RPC error: its own shared response per status.
    expect(doc.paths['/mcp']!.post!.responses['413']).toEqual({ $ref: '#/components/responses/JsonRpc413' });
    const responses = (doc.components as unknown as { responses: Record<string, unknown> }).responses;
    expect(responses.JsonRpc413).toEqual({ description: 'Over the size cap', content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpc' } } } });
  });

  it('lists every operation under one tag of the document\'s described tags, and every tag has an operation', () => {
    const names = doc.tags.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const t of doc.tags) expect(t.description.length, t.name).toBeGreaterThan(20);
    const used = new Set<string>();
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        expect(op.tags, `${method.toUpperCase()} ${path}`).toHaveLength(1);
        expect(names, `${method.toUpperCase()} ${path}`).toContain(op.tags![0]);
        used.add(op.tags![0]!);
      }
    }
    expect([...used].sort()).toEqual([...names].sort());
  });

  it.each([
    ['/records/history', 'get', 'records'],
    ['/records/roadmap', 'get', 'records'],
    ['/plane/ledgers/{ledger}/verify', 'get', 'plane'],
    ['/metrics', 'get', 'plane'],
    ['/health', 'get', 'plane'],
    ['/ready', 'get', 'plane'],
    ['/chat', 'post', 'chat'],
    ['/join', 'post', 'identity'],
    ['/forge', 'post', 'forge'],
    ['/studio/state', 'post', 'studio'],
    ['/mcp/{seller}', 'post', 'mcp'],
    ['/cards/{seller}', 'get', 'cards'],
  ])('lists %s (%s) under %s', (path, method, tag) => {
    expect(doc.paths[path]?.[method]?.tags).toEqual([tag]);
  });

  it('documents every status a route answers to a caller without credentials or with one that does not verify', async () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const url = `${deck.url}${path.replace('{seller}', 'studio')}`;
        const post = method === 'post';
        // A POST to an MCP endpoint is a JSON-RPC message; any other POST gets an empty object.
        const body = post ? JSON.stringify(path.startsWith('/mcp') ? { jsonrpc: '2.0', id: 1, method: 'ping' } : {}) : undefined;
        for (const headers of [{}, { authorization: 'Bearer not-a-credential' }] as Record<string, string>[]) {
          // The route's own answer: a redirect (the X door's) is not followed.
          const res = await fetch(url, { method: method.toUpperCase(), headers: { ...headers, ...(post ? { 'content-type': 'application/json' } : {}) }, body, redirect: 'manual' });
          await res.arrayBuffer();
          expect(Object.keys(op.responses), `${method.toUpperCase()} ${path} answered ${res.status}`).toContain(String(res.status));
        }
      }
    }
  });

  it('lists as x-mcp.tools exactly the tools /mcp?toolsets=all lists to a house principal, and as default_toolsets what a bare /mcp lists', async () => {
    const { bearer } = await signedIn(deck.url, 'openapi_house');
    const bare = await legacyClient(`${deck.url}/mcp`, bearer);
    const { toolsets, default_toolsets } = doc['x-mcp'];
    expect(namesOf((await bare.listTools()).tools)).toEqual(default_toolsets.flatMap((set) => toolsets[set]!).sort());
    await bare.close();
    expect(Object.values(toolsets).flat().sort()).toEqual([...doc['x-mcp'].tools].sort());
    const client = await legacyClient(`${deck.url}/mcp?toolsets=all`, bearer);
    expect([...doc['x-mcp'].tools].sort()).toEqual(namesOf((await client.listTools()).tools));
    expect((await client.callTool({ name: 'account', arguments: {} })).structuredContent).toMatchObject({ principal: { tier: 'house' } });
    await client.close();
    expect(doc['x-mcp'].endpoint).toBe(`${deck.url}/mcp`);
  });
});
