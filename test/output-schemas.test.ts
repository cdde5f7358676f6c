import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutSafeBounds } from '../rest/openapi-integers.js';
import { REGISTRY } from '../tools/registry.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { grantsFile, legacyClient, MCP_PATHS, modernClient, refusalIn } from './support/mcp.js';

// Every tool declares the JSON body it answers; that schema is the OpenAPI success response and the MCP outputSchema.

let deck: TestDeck;
let grants: string;
let house: Record<string, string>;
type Doc = { components: { schemas: Record<string, unknown> }; paths: Record<string, Record<string, { operationId?: string; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>> };
let doc: Doc;

/** A schema with every reference read in place (what sits beside a reference kept), a recursion cut where it repeats. */
function whole(schema: unknown, lookup: (ref: string) => unknown, under: readonly string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((s) => whole(s, lookup, under));
  if (typeof schema !== 'object' || schema === null) return schema;
  const { $ref, ...beside } = schema as Record<string, unknown>;
  const out = Object.fromEntries(Object.entries(beside).map(([k, v]) => [k, whole(v, lookup, under)]));
  if (typeof $ref !== 'string') return out;
  if (under.includes($ref)) return { ...out, $ref: '(recursion)' };
  const target = lookup($ref);
  expect(target, $ref).toBeDefined();
  return { ...(whole(target, lookup, [...under, $ref]) as object), ...out };
}

beforeAll(async () => {
  grants = await grantsFile([{ name: 'shaper', tier: 'house' }]);
  deck = await testDeck({ DECK_GRANTS: grants });
  house = (await signedIn(deck.url, 'shaper')).bearer;
  doc = (await (await fetch(`${deck.url}/openapi.json`)).json()) as Doc;
});
afterAll(async () => {
  await deck.stop();
  await rm(dirname(grants), { recursive: true, force: true });
});


describe('the OpenAPI document', () => {
  it("answers each tool's success with its output schema, whole", () => {
    const success = new Map<string, unknown>();
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops)) {
        if (!op.operationId) continue;
        const [status, response] = Object.entries(op.responses).find(([s]) => s.startsWith('2'))!;
        expect(Number(status)).toBeLessThan(300);
        success.set(op.operationId, response.content!['application/json']!.schema);
      }
    }
    for (const tool of REGISTRY.filter((t) => t.rest && t.rest.cookie !== 'set')) {
      // The document states each shared shape once, in components; a tool's own definitions (a recursive shape) are
      // its $defs. Both read whole, a recursion cut where it first repeats; the document leaves out zod's safe-integer bounds.
      const { $defs, ...body } = withoutSafeBounds(tool.outputSchema) as Record<string, unknown> & { $defs?: Record<string, unknown> };
      const own = whole(body, (ref) => $defs?.[ref.replace('#/$defs/', '')]);
      const stated = whole(success.get(tool.name), (ref) => doc.components.schemas[ref.replace('#/components/schemas/', '')]);
      expect(stated, tool.name).toEqual(own);
    }
  });

  it('leaves out of the body the session a route moves into the cookie', () => {
    const login = doc.paths['/login']!.post!.responses['200']!.content!['application/json']!.schema as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(login.properties)).toEqual(['ok', 'name', 'agent_id', 'expires_at']);
    expect(login.required).not.toContain('session');
  });
});

describe.each([...MCP_PATHS, '/mcp?toolsets=all'])('tools/list on %s', (path) => {
  it("lists each declared output as its outline, in both protocol eras", async () => {
    const legacy = await legacyClient(`${deck.url}${path}`, house);
    const modern = await modernClient(`${deck.url}${path}`, { headers: house });
    const eras = [(await legacy.listTools()).tools, (await modern.listTools()).tools];
    await Promise.all([legacy.close(), modern.close()]);
    for (const tools of eras) {
      expect(tools.length).toBeGreaterThan(0);
      for (const listed of tools) {
        const tool = REGISTRY.find((t) => t.name === listed.name)!;
        expect(listed.outputSchema, tool.name).toEqual(tool.listedOutputSchema);
      }
    }
  });
});

describe('a tools/call result of a tool that declares an output', () => {
  it('is its answer in structuredContent, which both eras of the SDK client hold to the listed outputSchema', async () => {
    const legacy = await legacyClient(`${deck.url}/mcp`, house);
    const modern = await modernClient(`${deck.url}/mcp`, { headers: house });
    // The clients check structuredContent against a tool's outputSchema once they have listed it.
    await Promise.all([legacy.listTools(), modern.listTools()]);
    for (const client of [legacy, modern]) {
      const account = await client.callTool({ name: 'account', arguments: {} });
      expect(account.isError).toBeFalsy();
      expect(account.structuredContent).toMatchObject({ ok: true, principal: { name: 'shaper', tier: 'house' }, meter: { tone: 'ok' } });
    }
    await Promise.all([legacy.close(), modern.close()]);
  });

  it('is, refused, isError with the refusal as its JSON text and no structuredContent (a refusal is not the output)', async () => {
    const legacy = await legacyClient(`${deck.url}/mcp`, house);
    const modern = await modernClient(`${deck.url}/mcp`, { headers: house });
    await Promise.all([legacy.listTools(), modern.listTools()]);
    for (const client of [legacy, modern]) {
      const refused = await client.callTool({ name: 'marks', arguments: { market: 'XX' } });
      expect(refusalIn(refused)).toMatchObject({ ok: false, error: 'bad_input', status: 422, problems: [{ field: 'market' }] });
      const unknown = await client.callTool({ name: 'skill_read', arguments: { id: 'no-such-skill' } });
      expect(refusalIn(unknown)).toMatchObject({ ok: false, error: 'not_found', status: 404 });
    }
    await Promise.all([legacy.close(), modern.close()]);
  });
});
