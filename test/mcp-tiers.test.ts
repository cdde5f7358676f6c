import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { grantsFile, legacyClient, modernClient, namesOf } from './support/mcp.js';

// Tier gating over MCP: a locked capability answers an upgrade_required result naming the tier that opens
// it. Today the one locked capability is grants with all=true (house only); the house tier comes from the
// grants file, the operator's file under version control.
let deck: TestDeck;
let grants: string;
const bearer: Record<'free' | 'house', Record<string, string>> = { free: {}, house: {} };

beforeAll(async () => {
  grants = await grantsFile([{ name: 'tier_house', tier: 'house' }]);
  deck = await testDeck({ DECK_GRANTS: grants });
  bearer.free = (await signedIn(deck.url, 'tier_free')).bearer;
  bearer.house = (await signedIn(deck.url, 'tier_house')).bearer;
});
afterAll(async () => {
  await deck.stop();
  await rm(dirname(grants), { recursive: true, force: true });
});

const ALL = { name: 'grants', arguments: { all: true } };

describe('grants with all=true over MCP', () => {
  it('answers a free principal (2025 era) with an isError upgrade_required result naming the house tier', async () => {
    const client = await legacyClient(`${deck.url}/mcp`, bearer.free);
    const r = await client.callTool(ALL);
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ ok: false, error: 'upgrade_required', tier: 'house' });
    // Without all, the same tool answers the caller's own grant.
    const own = await client.callTool({ name: 'grants', arguments: {} });
    expect(own.isError).toBeUndefined();
    expect(own.structuredContent).toMatchObject({ ok: true, grant: null });
    await client.close();
  });

  it('answers a free principal (2026-07-28) with the same upgrade_required result', async () => {
    const client = await modernClient(`${deck.url}/mcp`, { headers: bearer.free });
    const r = await client.callTool(ALL);
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ ok: false, error: 'upgrade_required', tier: 'house' });
    await client.close();
  });

  it('answers a house principal with every grant', async () => {
    for (const client of [await legacyClient(`${deck.url}/mcp`, bearer.house), await modernClient(`${deck.url}/mcp`, { headers: bearer.house })]) {
      const r = await client.callTool(ALL);
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ ok: true, grants: [{ name: 'tier_house', tier: 'house', joined: true }] });
      await client.close();
    }
  });

  it('names each principal with the tier the grants file gives it', async () => {
    for (const [tier, headers] of Object.entries(bearer)) {
      const client = await legacyClient(`${deck.url}/mcp`, headers);
      const account = await client.callTool({ name: 'account', arguments: {} });
      expect(account.structuredContent).toMatchObject({ principal: { tier } });
      await client.close();
    }
  });
});

describe('tools/list signed in', () => {
  // follow_quote is the one tool locked to a tier as a whole (max), so a free principal is shown every other tool a
  // house principal is; grants stays listed for a free principal because its own grant is open to it.
  it('shows a free principal every tool a house principal sees but the max tier\'s follow_quote, grants among them', async () => {
    const lists: string[][] = [];
    for (const headers of [bearer.free, bearer.house]) {
      const client = await legacyClient(`${deck.url}/mcp`, headers);
      lists.push(namesOf((await client.listTools()).tools));
      await client.close();
    }
    expect(lists[0]).toContain('grants');
    expect(lists[1]).toContain('follow_quote');
    expect(lists[0]).toEqual(lists[1]!.filter((name) => name !== 'follow_quote'));
  });
});
