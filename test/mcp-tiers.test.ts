import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { plansFile } from './support/chain.js';
import { grantsFile, legacyClient, modernClient, namesOf, refusalIn } from './support/mcp.js';

// Tier gating over MCP: a locked capability answers an upgrade_required result naming the tier that opens
// it and how to buy that tier. Locked: grants with all=true (house only), and what the plans file's tier_tools
// lock: follow_quote (max) in the shipped file, which opens the forecast to every session; the forecast tools
// (plan) on a plans file that sells them. The tiers here come from the grants file, the operator's file under
// version control (test/plans-chain.test.ts shows a plan paid on chain doing the same).
const TREASURY = '0x000000000000000000000000000000000000dEaD';
let deck: TestDeck;
let grants: string;
const bearer: Record<'free' | 'plan' | 'house', Record<string, string>> = { free: {}, plan: {}, house: {} };

beforeAll(async () => {
  grants = await grantsFile([
    { name: 'tier_house', tier: 'house' },
    { name: 'tier_plan', tier: 'plan' },
  ]);
  deck = await testDeck({ DECK_GRANTS: grants, DECK_TREASURY: TREASURY });
  bearer.free = (await signedIn(deck.url, 'tier_free')).bearer;
  bearer.plan = (await signedIn(deck.url, 'tier_plan')).bearer;
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
    // No plan sells the house tier: it is granted.
    expect(refusalIn(r)).toMatchObject({ ok: false, error: 'upgrade_required', tier: 'house', buy: null });
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
    expect(refusalIn(r)).toMatchObject({ ok: false, error: 'upgrade_required', tier: 'house' });
    await client.close();
  });

  it('answers a house principal with every grant', async () => {
    for (const client of [await legacyClient(`${deck.url}/mcp`, bearer.house), await modernClient(`${deck.url}/mcp`, { headers: bearer.house })]) {
      const r = await client.callTool(ALL);
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ ok: true, grants: [
          { name: 'tier_house', tier: 'house', joined: true },
          { name: 'tier_plan', tier: 'plan', joined: true },
        ] });
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

/** Every tool a caller's tools/list shows on a deck. */
const listedAt = async (url: string, headers: Record<string, string>) => {
  const client = await legacyClient(`${url}/mcp?toolsets=all`, headers);
  const names = namesOf((await client.listTools()).tools);
  await client.close();
  return names;
};

describe('tools/list signed in, on the shipped plans file', () => {
  const listed = (headers: Record<string, string>) => listedAt(deck.url, headers);

  it('shows the forecast tools to every session, as the contract has it, and leaves follow_quote out below the max tier', async () => {
    const free = await listed(bearer.free);
    for (const open of ['catalogue', 'plans', 'price', 'strategies', 'strategy_quote', 'grants', 'plan_claim', 'tape', 'forge', 'forecast', 'forecast_health']) expect(free).toContain(open);
    expect(free).not.toContain('follow_quote');
    expect(await listed(bearer.plan)).toEqual(free);
    expect(await listed(bearer.house)).toEqual([...free, 'follow_quote'].sort());
  });

  it('answers a free call of the forecast tools, over MCP and REST, without upgrade_required', async () => {
    for (const client of [await legacyClient(`${deck.url}/mcp`, bearer.free), await modernClient(`${deck.url}/mcp`, { headers: bearer.free })]) {
      const lens = await client.callTool({ name: 'forecast_health', arguments: {} });
      expect(lens.isError).toBeFalsy();
      expect(lens.structuredContent).toMatchObject({ ok: true });
      const envelope = await client.callTool({ name: 'forecast', arguments: { market: 'BTC', tf: '5m' } });
      if (envelope.isError) expect(refusalIn(envelope).error).not.toBe('upgrade_required');
      await client.close();
    }
    const res = await fetch(`${deck.url}/forecast/health`, { headers: bearer.free });
    expect(res.status).toBe(200);
  });

  it('names only follow_quote as locked in the endpoint description', async () => {
    const described = await (await fetch(`${deck.url}/mcp`)).json();
    expect(described.tier_locked).toEqual({ follow_quote: 'max' });
    expect(described.tools).toContain('forecast');
  });
});

describe('tools/list signed in, on a plans file that sells the forecast on the plan tier', () => {
  let selling: TestDeck;
  const seller: Record<'free' | 'plan', Record<string, string>> = { free: {}, plan: {} };
  beforeAll(async () => {
    const plans = await plansFile((p) => void (p.tier_tools = { plan: ['forecast', 'forecast_health'], max: ['follow_quote'] }));
    selling = await testDeck({ DECK_GRANTS: grants, DECK_TREASURY: TREASURY, DECK_PLANS: plans });
    seller.free = (await signedIn(selling.url, 'tier_free')).bearer;
    seller.plan = (await signedIn(selling.url, 'tier_plan')).bearer;
  });
  afterAll(() => selling.stop());

  const listed = (headers: Record<string, string>) => listedAt(selling.url, headers);

  it('leaves the forecast tools out below the plan tier, and lists them from it', async () => {
    const free = await listed(seller.free);
    expect(free).not.toContain('forecast');
    expect(free).not.toContain('forecast_health');
    expect(await listed(seller.plan)).toEqual([...free, 'forecast', 'forecast_health'].sort());
  });

  it('answers a free call of forecast with upgrade_required naming the plan tier and how to buy it', async () => {
    for (const client of [await legacyClient(`${selling.url}/mcp`, seller.free), await modernClient(`${selling.url}/mcp`, { headers: seller.free })]) {
      const r = await client.callTool({ name: 'forecast', arguments: { market: 'BTC', tf: '5m' } });
      expect(r.isError).toBe(true);
      expect(refusalIn(r)).toMatchObject({
        ok: false,
        error: 'upgrade_required',
        status: 403,
        tier: 'plan',
        buy: {
          plan: 'plan-29',
          price_usdc: 29,
          period_days: 30,
          treasury: TREASURY,
          chains: [{ id: 'eip155:8453', token: 'USDC', token_address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', token_decimals: 6 }],
        },
      });
      expect(refusalIn(r).message).toContain(`send it to ${TREASURY} on Base (eip155:8453)`);
      await client.close();
    }
  });

  it('names the locked tools and their tiers in the endpoint description and the OpenAPI document', async () => {
    const described = await (await fetch(`${selling.url}/mcp`)).json();
    expect(described.tier_locked).toEqual({ follow_quote: 'max', forecast: 'plan', forecast_health: 'plan' });
    const doc = await (await fetch(`${selling.url}/openapi.json`)).json();
    expect(Object.keys(doc.paths['/forecast/health'].get.responses)).toContain('403');
    const shipped = await (await fetch(`${deck.url}/openapi.json`)).json();
    expect(Object.keys(shipped.paths['/forecast/health'].get.responses)).not.toContain('403');
  });

  it('answers the same refusal over REST, with 403', async () => {
    const res = await fetch(`${selling.url}/forecast/health`, { headers: seller.free });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: 'upgrade_required', tier: 'plan', buy: { plan: 'plan-29' } });
  });
});
