import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY } from '../tools/registry.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { grantsFile, legacyClient, MODERN_PROTOCOL, modernClient, namesOf, rpc, type RpcError } from './support/mcp.js';
import { listTokens, tokenGoal } from './support/tokens.js';

// Toolsets: a bare /mcp lists its default toolsets, ?toolsets= names others (or all), and every tool stays callable by
// name whatever is listed. Each toolset is the OpenAPI tag of the same name.
let deck: TestDeck;
let grants: string;
let house: Record<string, string>;

type Described = { tools: string[]; toolsets: Record<string, string[]>; default_toolsets: string[]; listed_toolsets: string[]; toolsets_rule: string };
let described: Described;

beforeAll(async () => {
  grants = await grantsFile([{ name: 'toolsets_house', tier: 'house' }]);
  deck = await testDeck({ DECK_GRANTS: grants });
  house = (await signedIn(deck.url, 'toolsets_house')).bearer;
  described = (await (await fetch(`${deck.url}/mcp`)).json()) as Described;
});
afterAll(async () => {
  await deck.stop();
  await rm(dirname(grants), { recursive: true, force: true });
});

/** tools/list names of one URL, in both protocol eras (they must agree). */
async function listed(path: string, headers: Record<string, string> = house): Promise<string[]> {
  const legacy = await legacyClient(`${deck.url}${path}`, headers);
  const modern = await modernClient(`${deck.url}${path}`, { headers });
  const names = namesOf((await legacy.listTools()).tools);
  expect(namesOf((await modern.listTools()).tools)).toEqual(names);
  await legacy.close();
  await modern.close();
  return names;
}

const toolsOf = (...sets: string[]) => sets.flatMap((s) => described.toolsets[s]!).sort();

describe('a bare /mcp', () => {
  it('lists exactly its default toolsets, the studio loop, and leaves the rest to ?toolsets=', async () => {
    expect(described.default_toolsets).toEqual(['plans', 'marks', 'tape', 'forecast', 'studio', 'forge', 'skills']);
    expect(described.listed_toolsets).toEqual(described.default_toolsets);
    const names = await listed('/mcp');
    expect(names).toEqual(toolsOf(...described.default_toolsets));
    for (const t of ['account', 'skills', 'forge', 'rehearse', 'grade', 'tape', 'forecast', 'mark_add']) expect(names).toContain(t);
    for (const t of ['order_place', 'series_read', 'run_start', 'chat', 'ledgers', 'plate_seal']) expect(names).not.toContain(t);
  });

  it('costs the house tier fewer tokens than the goal', async () => {
    const client = await legacyClient(`${deck.url}/mcp`, house);
    const { tools } = await client.listTools();
    await client.close();
    expect(listTokens(tools)).toBeLessThan(tokenGoal('/mcp'));
  });

  it('still serves a tool outside its listing by name, in both eras', async () => {
    expect(await listed('/mcp')).not.toContain('book_caps');
    for (const client of [await legacyClient(`${deck.url}/mcp`, house), await modernClient(`${deck.url}/mcp`, { headers: house })]) {
      const caps = await client.callTool({ name: 'book_caps', arguments: {} });
      expect(caps.isError, JSON.stringify(caps)).toBeFalsy();
      expect(caps.structuredContent).toMatchObject({ ok: true });
      await client.close();
    }
  });

  it('describes every toolset on GET, each the tag its tools carry in the OpenAPI document', async () => {
    expect(Object.values(described.toolsets).flat().sort()).toEqual([...described.tools].sort());
    expect(described.toolsets_rule).toMatch(/toolsets=.*all.*listed or not/);
    type Doc = { paths: Record<string, Record<string, { tags?: string[]; 'x-mcp-tool'?: string }>> };
    const doc = (await (await fetch(`${deck.url}/openapi.json`)).json()) as Doc;
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p)).filter((op) => op['x-mcp-tool']);
    for (const op of ops) expect(described.toolsets[op.tags![0]!], op['x-mcp-tool']).toContain(op['x-mcp-tool']);
  });
});

describe('/mcp?toolsets=', () => {
  it('book,agent lists exactly the book and agent tools', async () => {
    expect(await listed('/mcp?toolsets=book,agent')).toEqual(toolsOf('book', 'agent'));
  });

  it('all lists every MCP tool of the registry', async () => {
    expect(await listed('/mcp?toolsets=all')).toEqual(namesOf(REGISTRY.filter((t) => t.surface === 'both')));
  });

  it('default adds to the default toolsets, and the parameter may be repeated', async () => {
    expect(await listed('/mcp?toolsets=default,series')).toEqual(toolsOf(...described.default_toolsets, 'series'));
    expect(await listed('/mcp?toolsets=book&toolsets=chat')).toEqual(toolsOf('book', 'chat'));
  });

  it('keeps tier filtering: anonymous, the book leaves out the max-tier follow_quote', async () => {
    const anonymous = await listed('/mcp?toolsets=book', {});
    expect(anonymous).toEqual(toolsOf('book').filter((t) => t !== 'follow_quote'));
    expect(await listed('/mcp?toolsets=book')).toContain('follow_quote');
  });

  it('refuses an unknown toolset by name: the SDK clients fail to connect, the wire answers 400 with -32602', async () => {
    await expect(legacyClient(`${deck.url}/mcp?toolsets=book,nope`, house)).rejects.toThrow(/HTTP.*unknown toolset \\"nope\\"/);
    // The 2.x client reports only that its discovery failed; the wire below says why, in either era.
    await expect(modernClient(`${deck.url}/mcp?toolsets=nope`, { headers: house })).rejects.toThrow();
    for (const headers of [{}, { 'mcp-protocol-version': MODERN_PROTOCOL }] as Record<string, string>[]) {
      const a = await rpc(`${deck.url}/mcp?toolsets=nope`, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers);
      expect(a.status).toBe(400);
      expect((a.body as RpcError).error).toMatchObject({ code: -32602, message: expect.stringMatching(/^toolsets: unknown toolset "nope"; the toolsets are plans, .*, or all or default$/) });
    }
    const get = await fetch(`${deck.url}/mcp?toolsets=nope`);
    expect(get.status).toBe(400);
    expect(await get.json()).toMatchObject({ ok: false, error: 'invalid_toolsets', message: expect.stringContaining('"nope"'), toolsets: Object.keys(described.toolsets) });
  });

  it('refuses a parameter that names no toolset', async () => {
    const a = await rpc(`${deck.url}/mcp?toolsets=`, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(a.status).toBe(400);
    expect((a.body as RpcError).error.message).toMatch(/^toolsets: names no toolset/);
  });
});

describe("a seller's endpoint", () => {
  it('lists all its own toolsets bare, narrows to the ones named, and refuses one it does not have', async () => {
    const copy = (await (await fetch(`${deck.url}/mcp/copy`)).json()) as Described;
    expect(copy.listed_toolsets).toEqual(Object.keys(copy.toolsets));
    expect(await listed('/mcp/copy')).toEqual([...copy.tools].sort());
    expect(await listed('/mcp/copy?toolsets=book')).toEqual([...copy.toolsets.book!].sort());
    const a = await rpc(`${deck.url}/mcp/candles?toolsets=book`, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(a.status).toBe(400);
    expect((a.body as RpcError).error.message).toMatch(/unknown toolset "book"/);
  });
});
