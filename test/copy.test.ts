import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStats, type PairedTrade } from '../engine/book/index.js';
import { everyNBars, startDecide, type DecideFixture } from './fixtures/decide.js';
import { startVenue, sampleRows, type VenueFixture } from './fixtures/venue.js';
import { movableClock, type MovableClock } from './support/clock.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { grantsFile, legacyClient, modernClient, namesOf, refusalIn } from './support/mcp.js';
import { until } from './support/wait.js';
import { answered, callAnswered } from './support/answers.js';

// The copy seller: models lists live models only (never a replay's fills, never the house's synthetic actors), a
// model's record is its past fills and paired trades, and follow_quote (the max tier) scales the model's recent
// orders to the follower's size inside the follower's caps. Over real HTTP and over MCP with the SDK's Client, on the
// paper venue over real BTC bars with a clock the test moves.

const btc = sampleRows('BTC-1m');
const at = new Map(btc.map((r, i) => [r[0], i]));
const q2 = (x: number) => Math.round(x * 100) / 100;
/** 5 April 2018, 14:00:10 UTC: a day the shipped BTC minutes hold whole. */
const T0 = Date.UTC(2018, 3, 5, 14, 0, 10) / 1000;

let clock: MovableClock;
let venue: VenueFixture;
let deck: TestDeck;
let grants: string;
let decideFx: DecideFixture;
type Who = Awaited<ReturnType<typeof signedIn>>;
let op: Who;
let house: Who;
let free: Who;
let max: Who;

const get = (path: string, who: Who) => callAnswered(`${deck.url}${path}`, { headers: who.bearer });
const post = (path: string, body: unknown, who: Who) => callAnswered(`${deck.url}${path}`, { body, headers: who.bearer });
const lastClose = () => btc[at.get(Math.floor(clock() / 60_000) * 60 - 60)!]![4];
/** Posts one decision for a model and lets the next bar close, so it fills. */
async function decided(who: Who, model: string, decision: Record<string, unknown>) {
  const r = await post('/typed/decisions', { model, decision }, who);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  clock.advance(120);
}
const register = async (who: Who, name: string, extra: Record<string, unknown> = {}) =>
  expect((await post('/agent/models', { name, decide_url: decideFx.url, market: 'BTC', ...extra }, who)).status).toBe(201);

/** Every key anywhere in a JSON value. */
const keysOf = (x: unknown): string[] =>
  Array.isArray(x) ? x.flatMap(keysOf) : typeof x === 'object' && x !== null ? Object.entries(x).flatMap(([k, v]) => [k, ...keysOf(v)]) : [];

beforeAll(async () => {
  clock = movableClock(T0);
  venue = await startVenue({ 'BTC/1m': btc });
  venue.clock = clock;
  grants = await grantsFile([
    { name: 'copy_house', tier: 'house' },
    { name: 'copy_max', tier: 'max' },
  ]);
  deck = await testDeck({ DECK_TAPE_URL: venue.url, DECK_GRANTS: grants, DECK_LOOPBACK_TARGETS: '1' }, clock);
  decideFx = await startDecide(everyNBars(5, 3, 0.01, 300));
  op = await signedIn(deck.url, 'copy_op');
  house = await signedIn(deck.url, 'copy_house');
  free = await signedIn(deck.url, 'copy_free');
  max = await signedIn(deck.url, 'copy_max');

  // A live model: long 0.02, out; short 0.01, out. Four fills, two paired trades.
  await register(op, 'trend');
  await decided(op, 'trend', { action: 'enter', side: 'long', size: 0.02, stop: q2(lastClose() - 300), why: 'up' });
  clock.advance(240);
  await decided(op, 'trend', { action: 'exit', why: 'enough' });
  await decided(op, 'trend', { action: 'enter', side: 'short', size: 0.01, stop: q2(lastClose() + 300), why: 'down' });
  clock.advance(300);
  await decided(op, 'trend', { action: 'exit', why: 'enough' });
  // A model that was only ever replayed.
  await register(op, 'tester');
  const run = await post('/agent/runs', { model: 'tester', mode: 'replay', to: Date.UTC(2018, 3, 5, 6) / 1000, hours: 1 }, op);
  expect(run.status).toBe(202);
  await until(() => get(`/agent/runs/${run.body.run.id}`, op), (r) => r.body.run.state === 'done');
  // A model that never traded.
  await register(op, 'idle');
  // The house's synthetic actor, trading live.
  await register(house, 'actor', { synthetic: true });
  await decided(house, 'actor', { action: 'enter', side: 'long', size: 0.01, stop: q2(lastClose() - 300), why: 'fill the book' });
  await decided(house, 'actor', { action: 'exit', why: 'fill the book' });
}, 60_000);
afterAll(async () => {
  await deck.stop();
  await decideFx.close();
  await venue.close();
  await rm(dirname(grants), { recursive: true, force: true });
});

describe('models', () => {
  it('lists live models only: not a replayed one, not one without fills, never a synthetic book actor', async () => {
    expect((await get('/book/fills?model=actor', house)).body.fills.total).toBe(2);
    expect((await get('/book/fills?model=tester', op)).body.fills.total).toBe(0);
    const listed = (await get('/copy/models', free)).body.models;
    expect(listed.items.map((m: { id: string }) => m.id)).toEqual(['copy_op/trend']);
    expect(listed.items[0]).toMatchObject({ market: 'BTC', timeframe: '1m', fills: 4, open: false, stats: { trades: 2 } });
  });

  it('serves the same list over MCP on the copy seller, to a free principal', async () => {
    const client = await legacyClient(`${deck.url}/mcp/copy`, free.bearer);
    const r = await client.callTool({ name: 'models', arguments: {} });
    answered('models', r.structuredContent);
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as { models: { items: { id: string }[] } }).models.items.map((m) => m.id)).toEqual(['copy_op/trend']);
    await client.close();
  });
});

describe('model_record', () => {
  it('is the past fills and paired trades, and its figures are recomputed from the trades it lists', async () => {
    const { status, body } = await get('/copy/record?model=copy_op/trend', free);
    expect(status).toBe(200);
    expect(body.fills.total).toBe(4);
    expect(body.trades.total).toBe(2);
    const [long, short] = body.trades.items as [PairedTrade, PairedTrade];
    const fills = body.fills.items;
    expect(long).toMatchObject({ side: 'long', size: 0.02, entry: fills[0].price, exit: fills[1].price, entry_fill: fills[0].id, exit_fill: fills[1].id });
    expect(short).toMatchObject({ side: 'short', size: 0.01, entry: fills[2].price, exit: fills[3].price });
    // Each fill at its bar's open, slippage against it, from the tape.
    for (const f of fills) expect(f.price).toBe(q2(btc[at.get(f.t)!]![1] + (f.side === 'buy' ? 0.5 : -0.5)));
    // By hand: (exit - entry) per unit less both sides' 5 bps, times the size.
    const pnl = (t: PairedTrade, d: number) => Math.round(((d * (t.exit - t.entry) - (t.entry + t.exit) * 0.0005) * t.size) * 1e4) / 1e4;
    expect(long.pnl_usd).toBeCloseTo(pnl(long, 1), 4);
    expect(short.pnl_usd).toBeCloseTo(pnl(short, -1), 4);
    expect(body.stats).toEqual(recordStats(body.trades.items));
    expect((await get('/copy/models', free)).body.models.items[0].stats).toEqual(body.stats);
  });

  it('holds no projection of any kind', async () => {
    const { body } = await get('/copy/record?model=copy_op/trend', free);
    const keys = keysOf(body).map((k) => k.toLowerCase());
    for (const word of ['projection', 'forecast', 'expected', 'predicted', 'future', 'projected']) expect(keys.some((k) => k.includes(word)), word).toBe(false);
  });

  it('pages its trades and fills', async () => {
    const { body } = await get('/copy/record?model=copy_op/trend&limit=1&offset=1', free);
    expect(body.trades).toMatchObject({ total: 2, offset: 1, limit: 1, next_offset: null, items: [{ side: 'short' }] });
    expect(body.fills).toMatchObject({ total: 4, offset: 1, next_offset: 2 });
  });

  it('answers 404 for a synthetic actor and a model no one has', async () => {
    expect((await get('/copy/record?model=copy_house/actor', free)).status).toBe(404);
    expect((await get('/copy/record?model=copy_op/nothing', free)).status).toBe(404);
    expect((await get('/copy/record?model=bad', free)).status).toBe(422);
  });
});

describe('the records ladder', () => {
  it('ranks from the same live paired closes as the record: unranked under 30 trades, figures from its trades, no synthetic actor, no replay', async () => {
    const { body: record } = await get('/copy/record?model=copy_op/trend', free);
    const ladder = (await callAnswered(`${deck.url}/records/ladder`)).body;
    expect(ladder.ranked).toEqual([]);
    const models = ladder.unranked.map((r: { model: string }) => r.model);
    expect(models).not.toContain('copy_house/actor');
    const trend = ladder.unranked.find((r: { model: string }) => r.model === 'copy_op/trend');
    expect(trend).toMatchObject({ standing: 'unranked', rank: null, trades: record.stats.trades, realized_r: record.stats.realized_r, max_drawdown_r: record.stats.max_drawdown_r });
    // A model only ever replayed has no close on the ladder: no figures, never zeros.
    const tester = ladder.unranked.find((r: { model: string }) => r.model === 'copy_op/tester');
    expect(tester).toMatchObject({ trades: 0, realized_r: null, max_drawdown_r: null, win_rate: null });
  });
});

describe('follow_quote', () => {
  it('below the max tier answers upgrade_required naming premium-99, over REST and MCP, and is left out of tools/list', async () => {
    const rest = await post('/copy/follow-quote', { model: 'copy_op/trend', size: 0.01, caps: {} }, free);
    expect(rest.status).toBe(403);
    expect(rest.body).toMatchObject({ error: 'upgrade_required', tier: 'max' });
    expect(rest.body.message).toMatch(/premium-99/);
    for (const client of [await legacyClient(`${deck.url}/mcp/copy`, free.bearer), await modernClient(`${deck.url}/mcp/copy`, { headers: free.bearer })]) {
      const r = await client.callTool({ name: 'follow_quote', arguments: { model: 'copy_op/trend', size: 0.01, caps: {} } });
      expect(r.isError).toBe(true);
      expect(refusalIn(r)).toMatchObject({ error: 'upgrade_required', tier: 'max' });
      expect(refusalIn(r).message).toMatch(/premium-99/);
      expect(namesOf((await client.listTools()).tools)).toEqual(['account', 'catalogue', 'model_record', 'models', 'plans']);
      await client.close();
    }
  });

  it('on the max tier quotes the model orders at the follower size, inside caps that cut nothing', async () => {
    const client = await legacyClient(`${deck.url}/mcp/copy`, max.bearer);
    expect(namesOf((await client.listTools()).tools)).toEqual(['account', 'catalogue', 'follow_quote', 'model_record', 'models', 'plans']);
    const r = await client.callTool({ name: 'follow_quote', arguments: { model: 'copy_op/trend', size: 0.01, caps: { max_order_size: 1 } } });
    answered('follow_quote', r.structuredContent);
    expect(r.isError).toBeFalsy();
    const q = r.structuredContent as { scale: number; rows: { size: number; model_size: number; cuts: unknown[] }[]; summary: Record<string, number> };
    expect(q.scale).toBe(0.5);
    expect(q.rows.map((x) => [x.model_size, x.size])).toEqual([
      [0.02, 0.01],
      [0.02, 0.01],
      [0.01, 0.005],
      [0.01, 0.005],
    ]);
    expect(q.summary).toEqual({ orders: 4, followed: 4, cut: 0, dropped: 0 });
    await client.close();
  });

  it('says which of the model orders the follower caps would have cut', async () => {
    const r = await post('/copy/follow-quote', { model: 'copy_op/trend', size: 0.01, caps: { max_order_size: 0.008, allow_short: false } }, max);
    expect(r.status).toBe(200);
    expect(r.body.rows.map((x: { size: number }) => x.size)).toEqual([0.008, 0.008, 0, 0]);
    expect(r.body.rows[0].cuts).toEqual([{ cap: 'max_order_size', from: 0.01, to: 0.008 }]);
    expect(r.body.rows[2].cuts).toEqual([{ cap: 'allow_short', from: 0.005, to: 0 }]);
    expect(r.body.summary).toEqual({ orders: 4, followed: 2, cut: 2, dropped: 2 });
    const byDollars = await post('/copy/follow-quote', { model: 'copy_op/trend', notional: 1000, caps: { markets: ['ETH'] } }, max);
    expect(byDollars.body.rows.every((x: { size: number; cuts: { cap: string }[] }) => x.size === 0)).toBe(true);
    expect(byDollars.body.rows[0].cuts[0].cap).toBe('markets');
  });

  it('needs exactly one of size and notional, and a listed model', async () => {
    const both = await post('/copy/follow-quote', { model: 'copy_op/trend', size: 1, notional: 5, caps: {} }, max);
    expect(both.status).toBe(422);
    expect(both.body.problems.map((p: { field: string }) => p.field)).toEqual(['size', 'notional']);
    expect((await post('/copy/follow-quote', { model: 'copy_house/actor', size: 1, caps: {} }, max)).status).toBe(404);
  });
});

describe('the copy card', () => {
  it("lists exactly the spec's tools, and prices following at premium-99's price in the plans file", async () => {
    const card = (await callAnswered(`${deck.url}/cards/copy`)).body;
    expect([...card.tools].sort()).toEqual(['account', 'catalogue', 'follow_quote', 'model_record', 'models', 'plans']);
    expect(card.tools_without_key).toEqual(['catalogue', 'plans']);
    expect(card.price_usdc).toEqual({ unit: 'job', min: 0, max: 99 });
    const plans = JSON.parse(await readFile('config/plans.json', 'utf8'));
    plans.plans.find((p: { id: string }) => p.id === 'premium-99').price_usdc = 79;
    const dir = await mkdtemp(join(tmpdir(), 'deck-plans-'));
    await writeFile(join(dir, 'plans.json'), JSON.stringify(plans));
    const other = await testDeck({ DECK_PLANS: join(dir, 'plans.json') });
    try {
      expect((await callAnswered(`${other.url}/cards/copy`)).body.price_usdc).toEqual({ unit: 'job', min: 0, max: 79 });
      expect((await callAnswered(`${other.url}/price`)).body.sellers.find((s: { id: string }) => s.id === 'copy').price_usdc.max).toBe(79);
    } finally {
      await other.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
