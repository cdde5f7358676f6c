import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOW_TO_SIGN_IN } from '../core/errors.js';

const SIGN_IN_FIRST = `sign in first: ${HOW_TO_SIGN_IN}`;
import { FileLedger } from '../store/file-ledger.js';
import type { Spend } from '../store/spend.js';
import { GIF_1PX } from './fixtures/images.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';

let deck: TestDeck;
let free: Awaited<ReturnType<typeof signedIn>>;
let house: Awaited<ReturnType<typeof signedIn>>;
let planner: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'deck-grants-'));
  const grants = join(dir, 'grants.json');
  await writeFile(
    grants,
    JSON.stringify({
      grants: [
        { name: 'keeper', tier: 'house', why: 'the house principal of this test' },
        { name: 'planner', tier: 'plan', allowance_per_day: 50, why: 'a plan holder with its own allowance' },
        { name: 'lapsed', tier: 'max', until: '2020-01-01', why: 'an expired grant' },
      ],
    }),
  );
  deck = await testDeck({ DECK_GRANTS: grants, DECK_TREASURY: '0x000000000000000000000000000000000000dEaD' });
  free = await signedIn(deck.url, 'freebie');
  house = await signedIn(deck.url, 'keeper');
  planner = await signedIn(deck.url, 'planner');
});
afterAll(() => deck.stop());

describe('GET /plans', () => {
  it('is the catalogue from configuration, with mine and principal null anonymously', async () => {
    const { status, body } = await call(`${deck.url}/plans`);
    expect(status).toBe(200);
    expect(body.plans.map((p: { id: string }) => p.id)).toEqual(['free', 'plan-29', 'premium-99']);
    expect(body.plans.find((p: { id: string }) => p.id === 'premium-99')).toMatchObject({ tier: 'max', price_usdc: 99, period_days: 30 });
    expect(body.chains[0]).toMatchObject({ id: 'eip155:8453', token: 'USDC' });
    expect(body.treasury).toBe('0x000000000000000000000000000000000000dEaD');
    expect(body.mine).toBeNull();
    expect(body.principal).toBeNull();
  });

  it('fills mine (plan, usage, period) and principal when signed in, by session or by key', async () => {
    for (const headers of [free.bearer, { authorization: `Bearer ${free.key}` }, { cookie: `deck_session=${free.session}` }]) {
      const { body } = await call(`${deck.url}/plans`, { headers });
      expect(body.principal).toMatchObject({ name: 'freebie', tier: 'free' });
      expect(body.mine).toMatchObject({ plan: 'free', tier: 'free', usage: { allowance: 100 } });
      expect(body.mine.period.unit).toBe('utc_day');
    }
  });

  it('reads the tier from the grants file, and an expired grant no longer counts', async () => {
    expect((await call(`${deck.url}/plans`, { headers: house.bearer })).body.mine.plan).toBe('house');
    expect((await call(`${deck.url}/plans`, { headers: planner.bearer })).body.mine).toMatchObject({ plan: 'plan-29', tier: 'plan' });
    const lapsed = await signedIn(deck.url, 'lapsed');
    expect((await call(`${deck.url}/plans`, { headers: lapsed.bearer })).body.principal.tier).toBe('free');
  });

  it('answers 401 for a credential that does not verify', async () => {
    const { status, body } = await call(`${deck.url}/plans`, { headers: { authorization: 'Bearer deck_live_not-a-key' } });
    expect(status).toBe(401);
    expect(body).toMatchObject({ ok: false, error: 'unauthorized', message: SIGN_IN_FIRST });
  });
});

describe('the meter', () => {
  it('GET /me without credentials names the bearer header and /join', async () => {
    const { status, body } = await call(`${deck.url}/me`);
    expect(status).toBe(401);
    expect(body.message).toContain('"Authorization: Bearer <your key or deck_session value>"');
    expect(body.message).toContain('join at /join');
    expect(body.message).toContain('POST /login');
  });

  it('GET /meter needs a session', async () => {
    const { status, body } = await call(`${deck.url}/meter`);
    expect(status).toBe(401);
    expect(body.message).toBe(SIGN_IN_FIRST);
  });

  it('reports balance, allowance, tone and the price list', async () => {
    const { status, body } = await call(`${deck.url}/meter`, { headers: planner.bearer });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, allowance: 50, spent: 0, balance: 50, tone: 'ok' });
    expect(body.prices.map((p: { action: string }) => p.action)).toContain('forge');
  });

  it('POST /meter records spends, bar-priced ones by the bar, and never refuses past zero', async () => {
    const forge = await call(`${deck.url}/meter`, { body: { action: 'forge' }, headers: planner.bearer });
    expect(forge.status).toBe(200);
    expect(forge.body).toMatchObject({ recorded: { action: 'forge', units: 10 }, balance: 40, tone: 'ok' });
    const bars = await call(`${deck.url}/meter`, { body: { action: 'rehearse', bars: 30_500 }, headers: planner.bearer });
    expect(bars.body).toMatchObject({ recorded: { units: 10 + 31 }, balance: -1, tone: 'spent' });
    const after = await call(`${deck.url}/meter`, { body: { action: 'grade' }, headers: planner.bearer });
    expect(after.status).toBe(200);
    expect(after.body.balance).toBe(-21);
  });

  it('never refuses an act the price list does not name: it records it unpriced, at no cost, and answers the balance', async () => {
    const before = (await call(`${deck.url}/meter`, { headers: free.bearer })).body;
    const unknown = await call(`${deck.url}/meter`, { body: { action: 'levitate' }, headers: free.bearer });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ ok: true, recorded: { action: 'levitate', units: 0, bars: null, priced: false }, spent: before.spent, balance: before.balance });
    const priced = await call(`${deck.url}/meter`, { body: { action: 'forge' }, headers: free.bearer });
    expect(priced.body.recorded).toMatchObject({ action: 'forge', priced: true });
    const ledger = await FileLedger.open<Spend>(deck.dataDir, 'meter');
    expect(ledger.verify()).toBeNull();
    expect(ledger.all.filter((e) => e.entry.action === 'levitate').map((e) => e.entry.units)).toEqual([0]);
  });

  it('names the field of a bad spend, and records nothing for it', async () => {
    const before = (await call(`${deck.url}/meter`, { headers: free.bearer })).body.spent;
    const shapeless = await call(`${deck.url}/meter`, { body: { action: 'two words' }, headers: free.bearer });
    expect(shapeless.status).toBe(422);
    expect(shapeless.body.problems[0].field).toBe('action');
    const fractional = await call(`${deck.url}/meter`, { body: { action: 'tape', bars: 1.5 }, headers: free.bearer });
    expect(fractional.status).toBe(422);
    expect(fractional.body.problems[0].field).toBe('bars');
    expect((await call(`${deck.url}/meter`, { headers: free.bearer })).body.spent).toBe(before);
  });

  it("records the deck's own acts on the chained meter ledger as POST /meter records them", async () => {
    const painter = await signedIn(deck.url, 'meter-painter');
    const attached = await call(`${deck.url}/studio/image`, { body: { data: GIF_1PX }, headers: painter.bearer });
    expect(attached.status).toBe(200);
    const told = await call(`${deck.url}/meter`, { body: { action: 'image' }, headers: painter.bearer });
    expect(told.body).toMatchObject({ recorded: { action: 'image', units: 1 }, spent: 2 });
    const ledger = await FileLedger.open<Spend>(deck.dataDir, 'meter');
    expect(ledger.verify()).toBeNull();
    const mine = ledger.all.filter((e) => e.entry.action === 'image' && e.entry.units === 1);
    expect(mine.length).toBe(2);
    expect(mine[0]!.entry.principal_id).toBe(mine[1]!.entry.principal_id);
  });

  it('records nothing for an act taken off the price list: taking it off makes it free', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deck-plans-'));
    const plans = JSON.parse(await readFile(new URL('../config/plans.json', import.meta.url), 'utf8'));
    plans.prices = plans.prices.filter((p: { action: string }) => p.action !== 'image');
    await writeFile(join(dir, 'plans.json'), JSON.stringify(plans));
    const unpriced = await testDeck({ DECK_PLANS: join(dir, 'plans.json') });
    try {
      const me = await signedIn(unpriced.url, 'free-painter');
      expect((await call(`${unpriced.url}/studio/image`, { body: { data: GIF_1PX }, headers: me.bearer })).status).toBe(200);
      expect((await call(`${unpriced.url}/meter`, { headers: me.bearer })).body.spent).toBe(0);
      const told = await call(`${unpriced.url}/meter`, { body: { action: 'image' }, headers: me.bearer });
      expect(told.body).toMatchObject({ recorded: { action: 'image', units: 0, priced: false }, spent: 0 });
    } finally {
      await unpriced.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('turns low below a fifth of the allowance', async () => {
    const low = await signedIn(deck.url, 'lowtone');
    for (let i = 0; i < 9; i++) await call(`${deck.url}/meter`, { body: { action: 'forge' }, headers: low.bearer });
    expect((await call(`${deck.url}/meter`, { headers: low.bearer })).body).toMatchObject({ balance: 10, tone: 'low' });
  });
});

describe('GET /grants', () => {
  it("answers the caller's grant and today's spend", async () => {
    const { body } = await call(`${deck.url}/grants`, { headers: planner.bearer });
    expect(body.grant).toMatchObject({ name: 'planner', tier: 'plan', allowance_per_day: 50 });
    expect(body.today.allowance).toBe(50);
    expect((await call(`${deck.url}/grants`, { headers: free.bearer })).body.grant).toBeNull();
  });

  it('all=1 is house only: upgrade_required naming the house tier for anyone else', async () => {
    const refused = await call(`${deck.url}/grants?all=1`, { headers: free.bearer });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'upgrade_required', tier: 'house' });
    const all = await call(`${deck.url}/grants?all=1`, { headers: house.bearer });
    expect(all.status).toBe(200);
    expect(all.body.grants.map((g: { name: string }) => g.name)).toEqual(['keeper', 'planner', 'lapsed']);
    expect(all.body.grants[1].today.spent).toBeGreaterThan(0);
  });

  it('refuses a query it does not know, naming it', async () => {
    const { status, body } = await call(`${deck.url}/grants?everything=1`, { headers: free.bearer });
    expect(status).toBe(422);
    expect(body.problems[0].message).toMatch(/everything/);
  });
});

describe('catalogue, price and account', () => {
  it('catalogue lists the sellers with their endpoints and the tape markets', async () => {
    const { body } = await call(`${deck.url}/catalogue`);
    expect(body.sellers.map((s: { id: string }) => s.id)).toEqual(['studio', 'candles', 'copy']);
    expect(body.sellers[1].endpoint).toBe(`${deck.url}/mcp/candles`);
    expect(body.markets).toEqual(['NQ', 'ES', 'YM', 'BTC', 'ETH', 'SOL']);
  });

  it('price lists units per action and prices one action, naming an unknown one', async () => {
    const all = await call(`${deck.url}/price`);
    expect(all.body.prices.length).toBeGreaterThan(5);
    expect(all.body.sellers.find((s: { id: string }) => s.id === 'copy').price_usdc.max).toBe(99);
    expect((await call(`${deck.url}/price?action=rehearse`)).body.prices).toEqual([
      { action: 'rehearse', units: 10, per_1000_bars: 1, what: expect.any(String) },
    ]);
    const unknown = await call(`${deck.url}/price?action=nothing`);
    expect(unknown.status).toBe(422);
    expect(unknown.body.problems[0].field).toBe('action');
  });

  it('price reads the onboarded register: each public strategy quoted as strategy_quote quotes it, the house one sealed', async () => {
    const { body } = await call(`${deck.url}/price`);
    const names = body.strategies.map((s: { name: string }) => s.name);
    expect(names).toContain('ema-cross');
    expect(names).not.toContain('house-one');
    const quote = await call(`${deck.url}/mcp`, {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'strategy_quote', arguments: { name: 'ema-cross' } } },
      headers: { accept: 'application/json, text/event-stream' },
    });
    const mine = body.strategies.find((s: { name: string }) => s.name === 'ema-cross');
    expect(mine.meter.total).toBe(mine.meter.forge + mine.meter.rehearse);
    expect({ ok: true, ...mine }).toEqual(quote.body.result.structuredContent);
  });

  it('account answers the signed-in principal and 401 without', async () => {
    expect((await call(`${deck.url}/me`)).status).toBe(401);
    const { body } = await call(`${deck.url}/me`, { headers: house.bearer });
    expect(body.principal).toMatchObject({ name: 'keeper', tier: 'house' });
    expect(body.grant.tier).toBe('house');
  });
});
