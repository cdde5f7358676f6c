import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY } from '../tools/registry.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { grantsFile, legacyClient, MCP_PATHS, modernClient, rpc, SELLER_IDS, type RpcError } from './support/mcp.js';

// What each endpoint says of itself (initialize's instructions, a card, the catalogue) is what it serves: a seller
// promises no tool it does not serve, and a call of a tool served elsewhere says where.
let deck: TestDeck;
let grants: string;
let free: Record<string, string>;

beforeAll(async () => {
  grants = await grantsFile([{ name: 'instr_free', tier: 'free' }]);
  deck = await testDeck({ DECK_GRANTS: grants, DECK_SAMPLE_TAPE: 'on' });
  free = (await signedIn(deck.url, 'instr_free')).bearer;
});
afterAll(async () => {
  await deck.stop();
  await rm(dirname(grants), { recursive: true, force: true });
});

const TOOL_NAMES = new Set(REGISTRY.map((t) => t.name));
/** The tool names a text mentions (the instructions write a tool's name in backticks). */
const namesIn = (text: string): string[] => [...text.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);

/** The tools an endpoint serves: a seller's card's, or every MCP tool of the registry on /mcp. */
async function served(path: string): Promise<string[]> {
  if (path === '/mcp') return REGISTRY.filter((t) => t.surface === 'both').map((t) => t.name);
  return ((await (await fetch(`${deck.url}/cards/${path.slice('/mcp/'.length)}`)).json()) as { tools: string[] }).tools;
}

describe.each(MCP_PATHS)('the instructions of %s', (path) => {
  it('are the same in both protocol eras, under 250 tokens, and name only tools served here or where they are served', async () => {
    const legacy = await legacyClient(`${deck.url}${path}`, free);
    const modern = await modernClient(`${deck.url}${path}`, { headers: free });
    const text = legacy.getInstructions()!;
    expect(modern.getInstructions()).toBe(text);
    await legacy.close();
    await modern.close();
    expect(encode(text).length).toBeLessThan(250);
    const here = await served(path);
    const servedBy = new Map(await Promise.all(MCP_PATHS.map(async (p) => [p, await served(p)] as const)));
    // A name not served here appears only in "X is on /mcp", the endpoint that serves it.
    const away = text.replace(/([\w`, -]+) (?:is|are) on (\/mcp[\w/ and]*)/g, (_m, names: string, where: string) => {
      for (const n of namesIn(names)) {
        expect(here).not.toContain(n);
        for (const there of where.split(' and ')) expect(servedBy.get(there), `${n} on ${there}`).toContain(n);
      }
      return '';
    });
    for (const n of namesIn(away)) expect(here, `${path} names ${n}`).toContain(n);
    for (const n of namesIn(text)) expect(TOOL_NAMES.has(n), n).toBe(true);
    expect(text).toContain(path);
  });

  it("say what the caller's tier allows, or how to learn it, and what the tape holds where the tape is read", async () => {
    const signed = (await legacyClient(`${deck.url}${path}`, free)).getInstructions()!;
    const anonymous = (await legacyClient(`${deck.url}${path}`)).getInstructions()!;
    expect(signed).toMatch(/Your tier, free, opens every keyless tool, the studio with 3 forges a day.*100 meter units a day/);
    expect(anonymous).toMatch(new RegExp(`Not signed in: .*join at ${deck.url}/join`));
    const { tape } = (await (await fetch(`${deck.url}/catalogue`)).json()) as { tape: { held: { market: string; tf: string }[] } };
    if (path === '/mcp/copy') expect(signed).not.toContain('The tape holds');
    else {
      expect(tape.held.length).toBeGreaterThan(0);
      for (const h of tape.held) expect(signed).toMatch(new RegExp(`${h.market} [\\w/]*\\b${h.tf}\\b`));
    }
  });
});

describe('the studio seller', () => {
  it('says the loop it serves and that grade is on /mcp', async () => {
    const text = (await legacyClient(`${deck.url}/mcp/studio`, free)).getInstructions()!;
    expect(text).toContain('The loop: `skill_read` trading-workflow, `workflow_read`, `forge`, `rehearse` here; then `grade` is on /mcp.');
  });

  it('promises no grade on its card or in the catalogue', async () => {
    const card = (await (await fetch(`${deck.url}/cards/studio`)).json()) as { description: string; tools: string[] };
    const { sellers } = (await (await fetch(`${deck.url}/catalogue`)).json()) as { sellers: { id: string; description: string }[] };
    expect(card.tools).not.toContain('grade');
    expect(card.description).not.toMatch(/grades/);
    expect(card.description).toContain("grade is on the deck's /mcp");
    expect(sellers.find((s) => s.id === 'studio')!.description).toBe(card.description);
  });

  it.each(['legacy', 'modern'] as const)('answers grade (%s client) as -32602 naming /mcp, where grade is served', async (era) => {
    const client = era === 'legacy' ? await legacyClient(`${deck.url}/mcp/studio`, free) : await modernClient(`${deck.url}/mcp/studio`, { headers: free });
    await expect(client.callTool({ name: 'grade', arguments: { seed_hash: 'x' } })).rejects.toThrow(/unknown tool grade on \/mcp\/studio; grade is on \/mcp$/);
    await client.close();
  });
});

describe.each(SELLER_IDS)('an unknown tool on /mcp/%s', (seller) => {
  it('names the endpoints that serve it, or says the deck has none', async () => {
    const call = (name: string) => rpc(`${deck.url}/mcp/${seller}`, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } }, free);
    expect(((await call('price')).body as RpcError).error.message).toBe(`unknown tool price on /mcp/${seller}; price is on /mcp`);
    const tape = ((await call('tape')).body as RpcError | { result: unknown });
    if (seller !== 'candles') expect((tape as RpcError).error.message).toBe(`unknown tool tape on /mcp/${seller}; tape is on /mcp and /mcp/candles`);
    expect(((await call('nope')).body as RpcError).error).toMatchObject({ code: -32602, message: `unknown tool nope on /mcp/${seller}; the deck has no tool nope; catalogue lists each seller's tools` });
  });
});
