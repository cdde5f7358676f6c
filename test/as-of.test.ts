import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { barsToRows, type BarRow } from '../engine/bars.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { legacyClient } from './support/mcp.js';
import { sampleFile } from './support/tape-file.js';

// A window read "as of to" sees only the bars closed by to: a to inside a bar stops at that bar's open, for a candle
// read over REST and over MCP, a bar built from finer ones, a seal, a rehearsal's window and a plate. On a deck
// seeded from the shipped sample (Bitfinex BTC 1h, October 2013; CME ES 1m, 7 to 11 October 2013).

const H = 3600;
const at = (s: string) => Date.parse(s) / 1000;
/** 14 October 2013, 00:00 UTC, and half past five: inside the 05:00 hour bar. */
const FROM = at('2013-10-14T00:00:00Z');
const MID = at('2013-10-14T05:30:00Z');
const BTC_1H = barsToRows(sampleFile('BTC-1h'));
/** The sample's hour bars that opened at or after `from` and closed by `to`, counted here from the file. */
const closedBy = (from: number, to: number): BarRow[] => BTC_1H.filter((r) => r.t >= from && r.t + H <= to);

let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;
const candles = (path: string) => call(`${deck.url}/timetravel/candles/${path}`, { headers: me.bearer });

beforeAll(async () => {
  deck = await testDeck({ DECK_SAMPLE_TAPE: 'on' });
  me = await signedIn(deck.url, 'as-of');
});
afterAll(() => deck.stop());

describe('GET /timetravel/candles as of a to inside a bar', () => {
  it('serves the bars closed by to, not the bar to falls in, and counts only those as expected', async () => {
    const { status, body } = await candles(`BTC/1h?from=${FROM}&to=${MID}`);
    expect(status).toBe(200);
    expect(body.candles).toEqual(closedBy(FROM, MID));
    expect(body.candles.map((c: BarRow) => c.t).at(-1)).toBe(at('2013-10-14T04:00:00Z'));
    expect(body.candles.every((c: BarRow) => c.t + H <= MID)).toBe(true);
    expect(body.coverage).toMatchObject({ from: FROM, to: MID, bars: 5, expected: 5, complete: true, sealed: true });
    // At the close of the 05:00 bar, it is in.
    const closed = await candles(`BTC/1h?from=${FROM}&to=${at('2013-10-14T06:00:00Z')}`);
    expect(closed.body.candles).toEqual(closedBy(FROM, at('2013-10-14T06:00:00Z')));
    expect(closed.body.candles.at(-1).t).toBe(at('2013-10-14T05:00:00Z'));
  });

  it('builds no bar it cannot close by to: ES 1h from the minutes stops at 13:00 for a to of 14:30', async () => {
    const { body } = await candles(`ES/1h?from=${at('2013-10-08T10:00:00Z')}&to=${at('2013-10-08T14:30:00Z')}`);
    expect(body.candles.map((c: BarRow) => c.t)).toEqual([10, 11, 12, 13].map((h) => at(`2013-10-08T${h}:00:00Z`)));
    expect(body.coverage).toMatchObject({ bars: 4, expected: 4, built_from: { tf: '1m', partial: 0 }, sealed: true });
  });

  it('answers a window too short to hold a whole bar with no bars and nothing expected, unsealed', async () => {
    const { status, body } = await candles(`BTC/1h?from=${at('2013-10-14T05:10:00Z')}&to=${MID}`);
    expect(status).toBe(200);
    expect(body.candles).toEqual([]);
    expect(body.coverage).toMatchObject({ bars: 0, expected: 0, sealed: false });
  });

  it('is the same over MCP: the tape tool serves the bars closed by to', async () => {
    const client = await legacyClient(`${deck.url}/mcp`, me.bearer);
    try {
      const got = await client.callTool({ name: 'tape', arguments: { market: 'BTC', tf: '1h', from: FROM, to: MID } });
      expect((got.structuredContent as { candles: BarRow[] }).candles).toEqual(closedBy(FROM, MID));
    } finally {
      await client.close();
    }
  });
});

describe('seals of a to inside a bar', () => {
  it('seals the answer as of to and answers the same bytes again', async () => {
    const path = `BTC/1h?from=${FROM + 6 * H}&to=${MID + 6 * H}`;
    const first = await fetch(`${deck.url}/timetravel/candles/${path}`, { headers: me.bearer });
    const again = await fetch(`${deck.url}/timetravel/candles/${path}`, { headers: me.bearer });
    const bytes = await first.text();
    expect(await again.text()).toBe(bytes);
    expect(JSON.parse(bytes).coverage.sealed).toBe(true);
    expect(JSON.parse(bytes).candles).toEqual(closedBy(FROM + 6 * H, MID + 6 * H));
  });

  it('drops a seal kept before the rule, which served the bar to falls in whole, and answers afresh', async () => {
    const from = FROM + 24 * H;
    const to = MID + 24 * H;
    // What the older rule sealed for [from, to): the bars opening in it, the 05:00 bar whole, with its coverage.
    const whole = (await candles(`BTC/1h?from=${from}&to=${from + 6 * H}`)).body;
    const old = Buffer.from(JSON.stringify({ ...whole, to, coverage: { ...whole.coverage, to } }));
    expect(whole.candles.at(-1).t).toBe(to - 30 * 60);
    await deck.services.store.seals.seal(`BTC/1h/${from}-${to}`, old);
    const { body } = await candles(`BTC/1h?from=${from}&to=${to}`);
    expect(body.candles).toEqual(closedBy(from, to));
    expect(body.coverage).toMatchObject({ expected: 5, sealed: true });
    // And the fresh answer is the seal from now on.
    expect((await deck.services.store.seals.get(`BTC/1h/${from}-${to}`))!.toString()).toBe(JSON.stringify(body));
  });
});

describe('a rehearsal and a plate as of a to inside a bar', () => {
  it('a rehearsal window ends at the close of the last bar closed by to, and no trade reads past it', async () => {
    const intent = 'BTC hourly chart, around the clock: go long when price breaks above the prior day high. Stop 2 ATR(14). Exit after 3 bars.';
    const forged = await call(`${deck.url}/forge`, { body: { intent }, headers: me.bearer });
    expect(forged.status).toBe(200);
    const { status, body } = await call(`${deck.url}/studio/rehearse`, { body: { seed_hash: forged.body.seed_hash, to: MID, hours: 72 }, headers: me.bearer });
    expect(status).toBe(200);
    expect(body.window).toMatchObject({ to: at('2013-10-14T05:00:00Z'), from: at('2013-10-11T05:00:00Z') });
    expect(body.trades.length).toBeGreaterThan(0);
    expect(body.trades.every((x: { exit_t: number }) => x.exit_t <= at('2013-10-14T05:00:00Z'))).toBe(true);
  });

  it('a plate draws the bars closed by to, its last candle the one that closed before to', async () => {
    const plate = await call(`${deck.url}/plates`, {
      body: { market: 'BTC', tf: '1h', from: '2013-10-14T00:00:00Z', to: '2013-10-14T05:30:00Z' },
      headers: me.bearer,
    });
    expect(plate.status).toBe(200);
    const state = await (await fetch(plate.body.json)).json();
    const last = closedBy(FROM, MID).at(-1)!;
    expect(state.bars).toMatchObject({ count: 5, last_t: last.t, last });
    expect(state.to).toBe('2013-10-14T05:30:00Z');
  });
});
