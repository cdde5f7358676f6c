import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY } from '../tools/registry.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { grantsFile, legacyClient, modernClient, namesOf, rpc, SELLER_IDS } from './support/mcp.js';

// A seller endpoint serves exactly its card's tools (the card names catalogue, plans and account too);
// the deck's own /mcp serves every MCP tool; a person's identity acts are never on MCP.
let deck: TestDeck;
let grants: string;
let house: Record<string, string>;

beforeAll(async () => {
  grants = await grantsFile([{ name: 'seller_house', tier: 'house' }]);
  deck = await testDeck({ DECK_GRANTS: grants });
  house = (await signedIn(deck.url, 'seller_house')).bearer;
});
afterAll(async () => {
  await deck.stop();
  await rm(dirname(grants), { recursive: true, force: true });
});

const IDENTITY_ACTS = ['join', 'login', 'logout', 'rotate_key', 'join_info', 'auth_providers'];

/** tools/list names of one endpoint for the house principal, in both protocol eras (they must agree). */
async function listed(path: string): Promise<string[]> {
  const legacy = await legacyClient(`${deck.url}${path}`, house);
  const modern = await modernClient(`${deck.url}${path}`, { headers: house });
  const names = namesOf((await legacy.listTools()).tools);
  expect(namesOf((await modern.listTools()).tools)).toEqual(names);
  await legacy.close();
  await modern.close();
  return names;
}

describe.each(SELLER_IDS)('the %s seller', (seller) => {
  it("serves exactly its card's tools, catalogue, plans and account among them", async () => {
    const card = (await (await fetch(`${deck.url}/cards/${seller}`)).json()) as { tools: string[]; endpoint: string };
    expect(card.endpoint).toBe(`${deck.url}/mcp/${seller}`);
    expect(card.tools).toEqual(expect.arrayContaining(['catalogue', 'plans', 'account']));
    expect(await listed(`/mcp/${seller}`)).toEqual([...card.tools].sort());
  });

  it('answers a tool outside its card as an unknown tool (-32602)', async () => {
    const a = await rpc(`${deck.url}/mcp/${seller}`, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'price', arguments: {} } }, house);
    expect(a.body).toMatchObject({ id: 1, error: { code: -32602 } });
  });
});

describe('the deck endpoint /mcp', () => {
  it('lists every MCP tool of the registry and every tool of every seller with ?toolsets=all', async () => {
    const all = await listed('/mcp?toolsets=all');
    expect(all).toEqual(namesOf(REGISTRY.filter((t) => t.surface === 'both')));
    for (const seller of SELLER_IDS) {
      const { tools } = (await (await fetch(`${deck.url}/cards/${seller}`)).json()) as { tools: string[] };
      expect(all).toEqual(expect.arrayContaining(tools));
    }
  });

  it('never lists or calls an identity act, on any endpoint', async () => {
    for (const path of ['/mcp', ...SELLER_IDS.map((id) => `/mcp/${id}`)]) {
      const names = await listed(path);
      for (const act of IDENTITY_ACTS) expect(names).not.toContain(act);
      const get = (await (await fetch(`${deck.url}${path}`)).json()) as { tools: string[] };
      expect(get.tools.filter((t) => IDENTITY_ACTS.includes(t))).toEqual([]);
    }
    for (const act of IDENTITY_ACTS) {
      const a = await rpc(`${deck.url}/mcp`, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: act, arguments: { name: 'someone' } } });
      expect(a.body).toMatchObject({ error: { code: -32602 } });
    }
  });
});
