import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileLedger } from '../store/file-ledger.js';
import type { FillRecord } from '../store/book.js';
import { startVenue, sampleRows, type VenueFixture } from './fixtures/venue.js';
import { movableClock, type MovableClock } from './support/clock.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';

import { grantsFile } from './support/mcp.js';
import { callAnswered } from './support/answers.js';

// The book over HTTP: orders and cancels on the paper venue, which fills from the tape. The venue serves the shipped
// sample's real BTC 1m bars up to its clock, which the test moves with the deck's: every fill is checked against the
// CSV's bar it happened in (BTC costs: $0.50 slippage on market and stop fills, 5 bps a side).

const btc = sampleRows('BTC-1m');
const at = new Map(btc.map((r, i) => [r[0], i]));
const q2 = (x: number) => Math.round(x * 100) / 100;
/** 5 April 2018, 12:00:30 UTC: a day the shipped BTC minutes hold whole. */
const T0 = Date.UTC(2018, 3, 5, 12, 0, 30) / 1000;
const O = 1;
const H = 2;
const L = 3;
const C = 4;

let clock: MovableClock;
let venue: VenueFixture;
let deck: TestDeck;
let alice: Awaited<ReturnType<typeof signedIn>>;
let bob: Awaited<ReturnType<typeof signedIn>>;

const order = (body: unknown, who = alice) => callAnswered(`${deck.url}/book/orders`, { body, headers: who.bearer });
const get = (path: string, who = alice) => callAnswered(`${deck.url}${path}`, { headers: who.bearer });
const cancel = (id: string, who = alice) => callAnswered(`${deck.url}/book/orders/${id}`, { method: 'DELETE', headers: who.bearer });
const fields = (body: { problems?: { field: string }[] }) => (body.problems ?? []).map((p) => p.field);
/** The index of the bar open at unix time t. */
const barOf = (t: number) => at.get(Math.floor(t / 60) * 60)!;
/** The index of the first bar opening at or after t: where an order placed at t fills. */
const nextBar = (t: number) => at.get(Math.ceil(t / 60) * 60)!;
/** Moves time on to the close of the bar at index i (the venue has then printed it). */
const passBar = (i: number) => clock.set(btc[i]![0] + 60);

beforeAll(async () => {
  clock = movableClock(T0);
  venue = await startVenue({ 'BTC/1m': btc });
  venue.clock = clock;
  deck = await testDeck({ DECK_TAPE_URL: venue.url }, clock);
  alice = await signedIn(deck.url, 'book_alice');
  bob = await signedIn(deck.url, 'book_bob');
});
afterAll(async () => {
  await deck.stop();
  await venue.close();
});

describe('a market order on the paper venue', () => {
  let id: string;
  const k = barOf(T0);

  it('is taken working, and fills at the open of the next bar, slippage against it, with 5 bps a side', async () => {
    const placed = await order({ market: 'BTC', side: 'buy', size: 0.01 });
    expect(placed.status).toBe(201);
    expect(placed.body.order).toMatchObject({ market: 'BTC', side: 'buy', size: 0.01, type: 'market', status: 'working', fill: null, placed_at: T0, mode: 'live', model: null });
    id = placed.body.order.id;
    // Nothing has printed since: still working.
    expect((await get('/book/orders')).body.orders.items[0]).toMatchObject({ id, status: 'working' });
    passBar(k + 1);
    const { body } = await get('/book/orders');
    const fill = body.orders.items.find((o: { id: string }) => o.id === id).fill;
    const price = q2(btc[k + 1]![O] + 0.5);
    expect(fill).toMatchObject({ t: btc[k + 1]![0], price, why: 'market', side: 'buy', size: 0.01 });
    expect(fill.fee).toBeCloseTo((price * 5) / 10_000, 9);
    expect((await get('/book/positions')).body.positions).toEqual([
      { market: 'BTC', side: 'long', size: 0.01, entry: price, stop: null, target: null, opened_t: btc[k + 1]![0] },
    ]);
  });

  it('cannot be cancelled once filled (409), nor by anyone else (404)', async () => {
    const filled = await cancel(id);
    expect(filled.status).toBe(409);
    expect(filled.body).toMatchObject({ error: 'order_filled', order: { id, status: 'filled' } });
    expect((await cancel(id, bob)).status).toBe(404);
    expect((await get('/book/orders', bob)).body.orders.total).toBe(0);
  });

  it('closes with a sell: the fills pair, and every fill is an entry of the hash-chained ledger', async () => {
    const now = clock() / 1000;
    const sold = await order({ market: 'BTC', side: 'sell', size: 0.01 });
    expect(sold.status).toBe(201);
    const i = nextBar(now);
    passBar(i);
    const fills = (await get('/book/fills')).body.fills;
    expect(fills.total).toBe(2);
    expect(fills.items[1]).toMatchObject({ t: btc[i]![0], price: q2(btc[i]![O] - 0.5), side: 'sell', why: 'market' });
    expect((await get('/book/positions')).body.positions).toEqual([]);
    const ledger = await FileLedger.open<FillRecord>(deck.dataDir, 'fills');
    expect(ledger.verify()).toBeNull();
    expect(ledger.all.map((e) => e.entry.id)).toEqual(fills.items.map((f: { id: string }) => f.id));
  });
});

describe('a limit order', () => {
  it('fills at its price on the first later bar whose range trades through it', async () => {
    const k = barOf(clock() / 1000);
    const low = Math.min(...btc.slice(k + 1, k + 30).map((r) => r[L]));
    const price = q2(low + 0.01);
    const placed = await order({ market: 'BTC', side: 'buy', size: 0.02, type: 'limit', price });
    expect(placed.status).toBe(201);
    const i = btc.findIndex((r, j) => j > k && r[L] < price);
    // One bar before it: still working.
    passBar(i - 1);
    expect((await get('/book/orders?status=working')).body.orders.items.map((o: { id: string }) => o.id)).toContain(placed.body.order.id);
    passBar(i);
    const { body } = await get(`/book/orders?status=filled`);
    const filled = body.orders.items.find((o: { id: string }) => o.id === placed.body.order.id);
    expect(filled.fill).toMatchObject({ t: btc[i]![0], price: btc[i]![O] < price ? btc[i]![O] : price, why: 'limit' });
    // Flat again for what follows.
    await order({ market: 'BTC', side: 'sell', size: 0.02 });
    passBar(nextBar(clock() / 1000));
    expect((await get('/book/positions')).body.positions).toEqual([]);
  });

  it('is cancelled while working, then answers 409 order_cancelled', async () => {
    const placed = await order({ market: 'BTC', side: 'buy', size: 0.01, type: 'limit', price: 1000 });
    const done = await cancel(placed.body.order.id);
    expect(done.status).toBe(200);
    expect(done.body.order).toMatchObject({ status: 'cancelled', fill: null });
    expect((await cancel(placed.body.order.id)).body.error).toBe('order_cancelled');
    clock.advance(600);
    expect((await get('/book/orders?status=cancelled')).body.orders.items.map((o: { id: string }) => o.id)).toEqual([placed.body.order.id]);
  });
});

describe("a position's stop", () => {
  it('is kept by the venue and fills at the stop (or at an open through it), slippage against', async () => {
    // A stretch where BTC falls $100 under a close within two hours, a few bars after it, without first rising $400.
    const k0 = barOf(clock() / 1000);
    const k = btc.findIndex((r, j) => {
      if (j <= k0) return false;
      const hit = btc.findIndex((x, m) => m >= j + 2 && x[L] <= r[C] - 100);
      return hit > j + 3 && hit < j + 120 && !btc.slice(j + 2, hit).some((x) => x[H] > r[C] + 400);
    });
    // Placed 5 s into bar k + 1: the last close is bar k's, and bar k + 2 fills it.
    clock.set(btc[k]![0] + 60 + 5);
    const stop = q2(btc[k]![C] - 100);
    const placed = await order({ market: 'BTC', side: 'buy', size: 0.01, stop, target: q2(btc[k]![C] + 400) });
    expect(placed.status).toBe(201);
    const entry = k + 2;
    const hit = btc.findIndex((r, j) => j >= entry && r[L] <= stop);
    expect(hit).toBeGreaterThan(entry);
    expect(btc.slice(entry, hit).some((r) => r[H] > q2(btc[k]![C] + 400))).toBe(false);
    passBar(entry);
    expect((await get('/book/positions')).body.positions[0]).toMatchObject({ side: 'long', stop, target: q2(btc[k]![C] + 400) });
    passBar(hit);
    const items = (await get('/book/fills?offset=4')).body.fills.items;
    expect(items.at(-1)).toMatchObject({ t: btc[hit]![0], why: 'stop', order_id: null, side: 'sell', price: btc[hit]![O] <= stop ? q2(btc[hit]![O] - 0.5) : q2(stop - 0.5) });
    expect((await get('/book/positions')).body.positions).toEqual([]);
  });
});

describe('paging the history', () => {
  it('pages oldest first with total and next_offset', async () => {
    const all = (await get('/book/orders')).body.orders;
    expect(all.total).toBeGreaterThanOrEqual(5);
    const first = (await get('/book/orders?limit=2')).body.orders;
    expect(first).toMatchObject({ total: all.total, offset: 0, limit: 2, next_offset: 2 });
    expect(first.items.map((o: { id: string }) => o.id)).toEqual(all.items.slice(0, 2).map((o: { id: string }) => o.id));
    const last = (await get(`/book/orders?limit=2&offset=${all.total - 1}`)).body.orders;
    expect(last).toMatchObject({ next_offset: null, items: [{ id: all.items.at(-1).id }] });
    expect((await get('/book/orders?limit=0')).status).toBe(422);
  });
});

describe('refusals', () => {
  it('an unknown market is 422 naming market', async () => {
    const r = await order({ market: 'XAU', side: 'buy', size: 1 });
    expect(r.status).toBe(422);
    expect(fields(r.body)).toEqual(['market']);
  });

  it('a size off the size step, a stop or target on the wrong side, a limit without its price: 422 naming each', async () => {
    expect(fields((await order({ market: 'BTC', side: 'buy', size: 0.00001 })).body)).toEqual(['size']);
    const c = btc[barOf(clock() / 1000) - 1]![C];
    expect(fields((await order({ market: 'BTC', side: 'buy', size: 0.01, stop: q2(c + 50) })).body)).toEqual(['stop']);
    expect(fields((await order({ market: 'BTC', side: 'sell', size: 0.01, target: q2(c + 50) })).body)).toEqual(['target']);
    expect(fields((await order({ market: 'BTC', side: 'buy', size: 0.01, type: 'limit' })).body)).toEqual(['price']);
    expect(fields((await order({ market: 'BTC', side: 'buy', size: 0.01, price: 80_000 })).body)).toEqual(['price']);
  });

  it("a size over the caller's caps is 422 over_caps naming the cap: the house's, then the caller's own", async () => {
    const house = await order({ market: 'BTC', side: 'buy', size: 6 });
    expect(house.status).toBe(422);
    expect(house.body).toMatchObject({ error: 'over_caps', caps: [{ cap: 'max_order_size', limit: 5 }] });
    expect(fields(house.body)).toEqual(['size']);
    const set = await callAnswered(`${deck.url}/book/caps`, { body: { caps: { max_order_size: 0.05, max_position: 0.08, markets: ['BTC', 'ETH'] } }, headers: bob.bearer });
    expect(set.status).toBe(200);
    expect(set.body.limits.BTC).toMatchObject({ max_order_size: 0.05, max_position: 0.08 });
    expect((await get('/book/caps', bob)).body).toEqual(set.body);
    const own = await order({ market: 'BTC', side: 'sell', size: 0.06 }, bob);
    expect(own.body).toMatchObject({ error: 'over_caps', caps: [{ cap: 'max_order_size', limit: 0.05 }] });
    // Working orders count toward the position they could make: 0.05 working, then 0.05 more reaches 0.1.
    expect((await order({ market: 'BTC', side: 'buy', size: 0.05, type: 'limit', price: 1000 }, bob)).status).toBe(201);
    const reach = await order({ market: 'BTC', side: 'buy', size: 0.05, type: 'limit', price: 1000 }, bob);
    expect(reach.body).toMatchObject({ error: 'over_caps', caps: [{ cap: 'max_position', limit: 0.08 }] });
    expect((await order({ market: 'SOL', side: 'buy', size: 1 }, bob)).body).toMatchObject({ error: 'over_caps', caps: [{ cap: 'markets' }] });
    // Alice's caps are hers alone.
    expect((await order({ market: 'BTC', side: 'buy', size: 0.06, type: 'limit', price: 1000 })).status).toBe(201);
  });

  it('needs a session', async () => {
    expect((await callAnswered(`${deck.url}/book/orders`, { body: { market: 'BTC', side: 'buy', size: 1 } })).status).toBe(401);
    expect((await callAnswered(`${deck.url}/book/fills`)).status).toBe(401);
  });
});

describe('a market closed by the CME calendar', () => {
  const es = sampleRows('ES-1m');
  let esClock: MovableClock;
  let esVenue: VenueFixture;
  let esDeck: TestDeck;
  let grants: string;

  beforeAll(async () => {
    // Saturday 2013-10-05, 12:00 UTC: the weekend halt before the shipped ES week.
    esClock = movableClock(Date.UTC(2013, 9, 5, 12) / 1000);
    esVenue = await startVenue({ 'ES/1m': es });
    esVenue.clock = esClock;
    grants = await grantsFile([{ name: 'cme_trader', tier: 'plan' }]);
    esDeck = await testDeck({ DECK_TAPE_URL: esVenue.url, DECK_GRANTS: grants }, esClock);
  });
  afterAll(async () => {
    await esDeck.stop();
    await esVenue.close();
    await rm(dirname(grants), { recursive: true, force: true });
  });

  it('refuses an order 409 market_closed, naming when the market opens again', async () => {
    const who = await signedIn(esDeck.url, 'cme_trader');
    const r = await callAnswered(`${esDeck.url}/book/orders`, { body: { market: 'ES', side: 'buy', size: 1 }, headers: who.bearer });
    expect(r.status).toBe(409);
    // Sunday 17:00 Chicago (CDT): 22:00 UTC.
    expect(r.body).toMatchObject({ error: 'market_closed', reopens_at: Date.UTC(2013, 9, 6, 22) / 1000 });
    expect(fields(r.body)).toEqual(['market']);
  });

  it('takes it once the market is open, and fills it at the next bar, one tick against it', async () => {
    esClock.set(Date.UTC(2013, 9, 7, 15, 0, 20) / 1000);
    const who = await signedIn(esDeck.url, 'cme_next');
    const r = await callAnswered(`${esDeck.url}/book/orders`, { body: { market: 'ES', side: 'sell', size: 2 }, headers: who.bearer });
    expect(r.status).toBe(201);
    const next = es.findIndex((b) => b[0] === Date.UTC(2013, 9, 7, 15, 1) / 1000);
    esClock.set(es[next]![0] + 60);
    const fills = (await callAnswered(`${esDeck.url}/book/fills`, { headers: who.bearer })).body.fills.items;
    expect(fills).toMatchObject([{ t: es[next]![0], price: es[next]![O] - 0.25, fee: 0.04, size: 2, side: 'sell' }]);
  });
});

describe('without a tape', () => {
  it('an order is 503 naming DECK_TAPE_URL: the paper venue fills from the tape, never from a guess', async () => {
    const bare = await testDeck();
    try {
      const who = await signedIn(bare.url, 'book_bare');
      const r = await callAnswered(`${bare.url}/book/orders`, { body: { market: 'BTC', side: 'buy', size: 0.01 }, headers: who.bearer });
      expect(r.status).toBe(503);
      expect(r.body.message).toMatch(/DECK_TAPE_URL/);
    } finally {
      await bare.stop();
    }
  });
});
