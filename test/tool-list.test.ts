import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { grantsFile, legacyClient, MCP_PATHS } from './support/mcp.js';
import { listTokens, tokenGoal } from './support/tokens.js';

// Lean toolsets: what each endpoint's tools/list costs a model in tokens, counted (never timed), and the
// annotations every tool states. Listed as the house tier sees it, the longest list there is.

let deck: TestDeck;
let grants: string;
let house: Record<string, string>;

beforeAll(async () => {
  grants = await grantsFile([{ name: 'lister', tier: 'house' }]);
  deck = await testDeck({ DECK_GRANTS: grants });
  house = (await signedIn(deck.url, 'lister')).bearer;
});
afterAll(async () => {
  await deck.stop();
  await rm(dirname(grants), { recursive: true, force: true });
});

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

describe.each(MCP_PATHS)('tools/list on %s', (path) => {
  it('costs fewer tokens than the goal', async () => {
    const client = await legacyClient(`${deck.url}${path}`, house);
    const { tools } = await client.listTools();
    await client.close();
    const tokens = listTokens(tools);
    console.log(`tools/list ${path}: ${tools.length} tools, ${tokens} tokens (o200k_base), goal < ${tokenGoal(path)}`);
    expect(tools.length).toBeGreaterThan(0);
    expect(tokens).toBeLessThan(tokenGoal(path));
  });
});

// Every tool /mcp serves, listed or not by default, states its annotations.
describe.each([...MCP_PATHS, '/mcp?toolsets=all'])('tools/list on %s', (path) => {
  it('states all four annotations of every tool, and a description that says what it does', async () => {
    const client = await legacyClient(`${deck.url}${path}`, house);
    const { tools } = await client.listTools();
    await client.close();
    for (const t of tools) {
      for (const h of HINTS) expect(typeof t.annotations?.[h], `${t.name}.${h}`).toBe('boolean');
      // A read changes nothing, so it destroys nothing.
      if (t.annotations!.readOnlyHint) expect(t.annotations!.destructiveHint, t.name).toBe(false);
      expect(t.description!.length, t.name).toBeGreaterThan(40);
    }
  });
});

describe('the whole deck, every toolset', () => {
  it('is what ?toolsets=all lists (no goal: a client that asks for every tool pays for every tool)', async () => {
    const client = await legacyClient(`${deck.url}/mcp?toolsets=all`, house);
    const { tools } = await client.listTools();
    await client.close();
    console.log(`tools/list /mcp?toolsets=all: ${tools.length} tools, ${listTokens(tools)} tokens (o200k_base)`);
    expect(tools.length).toBeGreaterThan(60);
  });
});

describe('annotations that say what a tool does to the world', () => {
  it('marks reads, what reaches the venue or a lane, and what destroys', async () => {
    const client = await legacyClient(`${deck.url}/mcp`, house);
    const byName = new Map((await client.listTools()).tools.map((t) => [t.name, t.annotations!]));
    await client.close();
    expect(byName.get('catalogue')).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(byName.get('tape')).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: true });
    expect(byName.get('mark_add')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(byName.get('mark_remove')).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(byName.get('grade')).toMatchObject({ readOnlyHint: false, openWorldHint: true });
  });

  it('lists a script block by reference, while validation and the OpenAPI document keep its whole schema', async () => {
    const client = await legacyClient(`${deck.url}/mcp`, house);
    const forge = (await client.listTools()).tools.find((t) => t.name === 'forge')!;
    await client.close();
    const script = (forge.inputSchema.properties as Record<string, { description: string }>).script!;
    expect(script.description).toMatch(/script\.v1.*OpenAPI/);
    expect(JSON.stringify(forge.inputSchema)).not.toContain('$defs');
    type Shape = { $ref?: string; properties: Record<string, Shape> };
    const doc = (await (await fetch(`${deck.url}/openapi.json`)).json()) as { paths: Record<string, { post: { requestBody: { content: { 'application/json': { schema: Shape } } } } }>; components: { schemas: Record<string, Shape> } };
    // A shape stated in several places (the script block: a forge's body and its answer) is one named component.
    const named = (s: Shape): Shape => (s.$ref ? doc.components.schemas[s.$ref.replace('#/components/schemas/', '')]! : s);
    const full = named(named(doc.paths['/forge']!.post.requestBody.content['application/json'].schema).properties.script!).properties;
    expect(Object.keys(full)).toEqual(expect.arrayContaining(['market', 'timeframe', 'session', 'side', 'entry', 'stop', 'exit']));
  });
});
