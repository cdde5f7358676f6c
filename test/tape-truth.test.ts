import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileLedger } from '../store/file-ledger.js';
import type { Spend } from '../store/spend.js';
import { startVenue, sampleRows, type VenueFixture } from './fixtures/venue.js';
import { runCli, samplePath, writeCsv } from './support/cli.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';

const M = 60;
const H = 3600;
const D = 86_400;
/** 5 April 2018: the shipped BTC minutes hold every minute of it, and of the day after. */
const BTC_DAY = Date.UTC(2018, 3, 5) / 1000;
const NOON = BTC_DAY + 12 * H;
const BAR_1230 = NOON + 30 * M;
/** 2013-10-08: the shipped Bitfinex BTC hours hold all 24 of it; 2013-10-08 14:00, inside the shipped ES 1m week. */
const HOURS_DAY = Date.UTC(2013, 9, 8) / 1000;
const ES_FROM = Date.UTC(2013, 9, 8, 14) / 1000;
/** Saturday 2013-10-12: ES's weekend halt all day, after the shipped week. */
const ES_SATURDAY = Date.UTC(2013, 9, 12) / 1000;

const btc1m = sampleRows('BTC-1m');
/** The 5m bar of the real minutes opening at t, built by hand. */
function fiveMinuteBar(t: number) {
  const rows = btc1m.filter((r) => r[0] >= t && r[0] < t + 5 * M);
  return { t, o: rows[0]![1], h: Math.max(...rows.map((r) => r[2])), l: Math.min(...rows.map((r) => r[3])), c: rows.at(-1)![4], v: rows.reduce((s, r) => s + r[5], 0) };
}

describe('an archive that ends inside a bar, with no venue, filled while the deck runs', () => {
  let data: string;
  let deck: TestDeck;
  let me: Awaited<ReturnType<typeof signedIn>>;
  const candles = (path: string) => call(`${deck.url}/timetravel/candles/${path}`, { headers: me.bearer });
  const fiveMinutes = `BTC/5m?from=${NOON}&to=${BAR_1230 + 5 * M}`;
  const hour = `BTC/1h?from=${NOON}&to=${NOON + H}`;

  beforeAll(async () => {
    data = await mkdtemp(join(tmpdir(), 'deck-truth-'));
    deck = await testDeck({ DECK_DATA: data });
    me = await signedIn(deck.url, 'archivist');
  });
  afterAll(async () => {
    await deck.stop();
  });

  it('sees bars imported after it started: 503 before the import, the bars after it', async () => {
    expect((await candles(fiveMinutes)).status).toBe(503);
    // The archive ends at 12:31: two minutes into the 12:30 bar, 32 minutes into the 12:00 hour.
    const upTo1231 = await writeCsv(data, 'morning.csv', btc1m.filter((r) => r[0] >= BTC_DAY && r[0] < BAR_1230 + 2 * M));
    expect((await runCli('tape', ['import', upTo1231, '--market', 'BTC', '--tf', '1m'], data)).code).toBe(0);
    expect((await candles(fiveMinutes)).status).toBe(200);
  });

  it('serves no bar the archive ends inside, and seals nothing while a bar is unmeasured', async () => {
    const five = await candles(fiveMinutes);
    expect(five.body.candles.map((c: { t: number }) => c.t)).toEqual([0, 1, 2, 3, 4, 5].map((i) => NOON + i * 5 * M));
    expect(five.body.candles[5]).toEqual({ ...fiveMinuteBar(NOON + 25 * M), v: expect.closeTo(fiveMinuteBar(NOON + 25 * M).v, 6) });
    expect(five.body.coverage).toMatchObject({
      source: 'archive',
      measured: true,
      complete: false,
      sealed: false,
      built_from: { tf: '1m', partial: 0 },
      unmeasured: { spans: [{ from: BAR_1230, to: BAR_1230 + 5 * M }], bars: 1 },
      missing: { bars: 0 },
    });
    const hourly = await candles(hour);
    expect(hourly.body.candles).toEqual([]);
    expect(hourly.body.coverage).toMatchObject({ sealed: false, unmeasured: { bars: 1 } });
  });

  it('serves the bar whole and seals the window once the rest of its minutes are imported', async () => {
    const rest = await writeCsv(data, 'afternoon.csv', btc1m.filter((r) => r[0] >= BAR_1230 + 2 * M && r[0] < BTC_DAY + D));
    expect((await runCli('tape', ['import', rest, '--market', 'BTC', '--tf', '1m'], data)).code).toBe(0);
    const five = await candles(fiveMinutes);
    expect(five.body.candles).toHaveLength(7);
    const whole = fiveMinuteBar(BAR_1230);
    expect(five.body.candles[6]).toEqual({ ...whole, v: expect.closeTo(whole.v, 6) });
    expect(five.body.coverage).toMatchObject({ complete: true, sealed: true, unmeasured: { bars: 0 } });
    const again = await fetch(`${deck.url}/timetravel/candles/${fiveMinutes}`, { headers: me.bearer });
    expect(await again.text()).toBe(JSON.stringify(five.body));
    const hourly = await candles(hour);
    expect(hourly.body.candles).toHaveLength(1);
    expect(hourly.body.coverage).toMatchObject({ complete: true, sealed: true });
  });

  it('answers a window of closed market (an ES Saturday) with its closed stretch, and its plate is undrawable', async () => {
    const saturday = await candles(`ES/1h?from=${ES_SATURDAY}&to=${ES_SATURDAY + D}`);
    expect(saturday.status).toBe(200);
    expect(saturday.body.candles).toEqual([]);
    expect(saturday.body.coverage).toMatchObject({
      source: 'archive',
      expected: 0,
      measured: false,
      sealed: false,
      closed: { spans: [{ from: ES_SATURDAY, to: ES_SATURDAY + D, why: 'weekend' }], seconds: D },
      missing: { bars: 0 },
      unmeasured: { bars: 0 },
    });
    const iso = (t: number) => new Date(t * 1000).toISOString();
    const plate = await call(`${deck.url}/plates`, { body: { market: 'ES', tf: '1h', from: iso(ES_SATURDAY), to: iso(ES_SATURDAY + D) }, headers: me.bearer });
    expect(plate.status).toBe(422);
    expect(plate.body).toMatchObject({ error: 'undrawable', reason: 'no_bars' });
    // A window where the market traded and the archive knows nothing still names the venue to configure.
    const monday = await candles(`ES/1h?from=${ES_SATURDAY + 2 * D}&to=${ES_SATURDAY + 3 * D}`);
    expect(monday.status).toBe(503);
    expect(monday.body.message).toMatch(/DECK_TAPE_URL/);
  });
});

describe('a venue that holds part of a window, or none of a market', () => {
  const series: Record<string, ReturnType<typeof sampleRows>> = { 'BTC/1m': btc1m, 'BTC/1h': sampleRows('BTC-1h').filter((r) => r[0] >= HOURS_DAY + 10 * H) };
  let venue: VenueFixture;
  let deck: TestDeck;
  let me: Awaited<ReturnType<typeof signedIn>>;
  const candles = (path: string) => call(`${deck.url}/timetravel/candles/${path}`, { headers: me.bearer });

  beforeAll(async () => {
    venue = await startVenue(series);
    deck = await testDeck({ DECK_TAPE_URL: venue.url });
    me = await signedIn(deck.url, 'reader');
  });
  afterAll(async () => {
    await deck.stop();
    await venue.close();
  });

  it('does not seal a window with an unmeasured stretch (10 of 24 bars): it is answered whole once the venue holds them', async () => {
    const path = `BTC/1h?from=${HOURS_DAY}&to=${HOURS_DAY + D}`;
    const first = await candles(path);
    expect(first.body.candles).toHaveLength(14);
    expect(first.body.coverage).toMatchObject({ source: 'venue', sealed: false, unmeasured: { spans: [{ from: HOURS_DAY, to: HOURS_DAY + 10 * H }], bars: 10 } });
    series['BTC/1h'] = sampleRows('BTC-1h');
    const second = await candles(path);
    expect(second.body.candles).toHaveLength(24);
    expect(second.body.coverage).toMatchObject({ complete: true, sealed: true });
    const hits = venue.hits.get('BTC/1h');
    const third = await fetch(`${deck.url}/timetravel/candles/${path}`, { headers: me.bearer });
    expect(await third.text()).toBe(JSON.stringify(second.body));
    expect(venue.hits.get('BTC/1h')).toBe(hits);
  });

  it('does not seal a market the venue answered 404 for at every timeframe as empty: it is asked again', async () => {
    const path = `ES/1h?from=${ES_FROM}&to=${ES_FROM + 4 * H}`;
    const none = await candles(path);
    expect(none.status).toBe(200);
    expect(none.body.candles).toEqual([]);
    expect(none.body.coverage).toMatchObject({ measured: false, complete: false, sealed: false, unmeasured: { bars: 4 } });
    expect(['ES/1h', 'ES/1m', 'ES/15s'].map((k) => venue.hits.get(k))).toEqual([1, 1, 1]);
    series['ES/1m'] = sampleRows('ES-1m');
    const served = await candles(path);
    expect(served.body.candles).toHaveLength(4);
    expect(served.body.coverage).toMatchObject({ measured: true, built_from: { tf: '1m' } });
  });

  it('serves a replay session closed bars only, never the bar still forming', async () => {
    // The shipped ETH minutes moved on in time so that the venue's newest bar opens this very minute.
    const eth = sampleRows('ETH-1m').slice(-30);
    const minute = Math.floor(Date.now() / 1000 / M) * M;
    const shift = minute - eth.at(-1)![0];
    series['ETH/1m'] = eth.map(([t, ...rest]) => [t + shift, ...rest] as (typeof eth)[number]);
    const now = Math.floor(Date.now() / 1000);
    const { body } = await candles(`ETH/1m?from=${minute - 10 * M}&to=${now}&session=live-1`);
    expect(body.candles.at(-1).t).toBe(minute - M);
    // The bar forming at `to` has not closed by it: it is not in the window as of `to`, neither served nor expected.
    expect(body.coverage).toMatchObject({ sealed: false, unmeasured: { bars: 0 } });
  });

  it('keeps what the venue sent a replay session in the archive', async () => {
    const path = `BTC/1m?from=${BTC_DAY + D}&to=${BTC_DAY + D + H}`;
    expect((await candles(`${path}&session=replay-2`)).body.candles).toHaveLength(60);
    venue.mode = 'error';
    try {
      const kept = await candles(path);
      expect(kept.status).toBe(200);
      expect(kept.body.coverage).toMatchObject({ source: 'archive', bars: 60, complete: true, sealed: true });
    } finally {
      venue.mode = 'up';
    }
  });

  it('records each tape read on the meter by the bars it served; a plate pays for its own bars', async () => {
    const who = await signedIn(deck.url, 'metered');
    const tapeEntries = async () => (await FileLedger.open<Spend>(deck.dataDir, 'meter')).all.filter((e) => e.entry.action === 'tape').map((e) => e.entry);
    const before = (await tapeEntries()).length;
    // The record is written as the answer goes out: the meter shows it once it is on disk, a moment later.
    const spent = async (expected: number) => {
      let now = NaN;
      for (const start = Date.now(); Date.now() - start < 5000; await new Promise((r) => setTimeout(r, 20))) {
        now = (await call(`${deck.url}/meter`, { headers: who.bearer })).body.spent;
        if (now === expected) break;
      }
      return now;
    };
    expect(await spent(0)).toBe(0);

    const day = `BTC/1m?from=${BTC_DAY}&to=${BTC_DAY + D}`;
    expect((await call(`${deck.url}/timetravel/candles/${day}`, { headers: who.bearer })).body.candles).toHaveLength(1440);
    expect(await spent(2)).toBe(2); // 0 units and 1 per 1,000 bars, rounded up
    await call(`${deck.url}/timetravel/candles/${day}`, { headers: who.bearer }); // sealed now: still a read
    expect(await spent(4)).toBe(4);
    const mcp = await call(`${deck.url}/mcp/candles`, {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'tape', arguments: { market: 'BTC', tf: '1m', from: BTC_DAY, to: BTC_DAY + H } } },
      headers: { ...who.bearer, accept: 'application/json, text/event-stream' },
    });
    expect(mcp.body.result.structuredContent.candles).toHaveLength(60);
    expect(await spent(5)).toBe(5);
    const refused = await call(`${deck.url}/timetravel/candles/BTC/1m?from=${BTC_DAY}&to=${BTC_DAY}`, { headers: who.bearer });
    expect(refused.status).toBe(422);
    expect(await spent(5)).toBe(5);

    const iso = (t: number) => new Date(t * 1000).toISOString();
    const plate = await call(`${deck.url}/plates`, { body: { market: 'BTC', tf: '1h', from: iso(BTC_DAY), to: iso(BTC_DAY + D) }, headers: who.bearer });
    expect(plate.status).toBe(200);
    const entries = (await tapeEntries()).slice(before);
    expect(entries.map(({ units, bars }) => ({ units, bars }))).toEqual([
      { units: 2, bars: 1440 },
      { units: 2, bars: 1440 },
      { units: 1, bars: 60 },
    ]);
    expect((await FileLedger.open<Spend>(deck.dataDir, 'meter')).verify()).toBeNull();
  });
});

describe('npm run tape -- import', () => {
  it('refuses hourly bars imported as 5m, saying what they look like, and imports nothing', async () => {
    const data = await mkdtemp(join(tmpdir(), 'deck-spacing-'));
    const refused = await runCli('tape', ['import', samplePath('BTC-1h'), '--market', 'BTC', '--tf', '5m'], data);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the bars are 1h apart (most common spacing 3600 s), not 5m; nothing imported');
    expect(existsSync(join(data, 'tape', 'BTC', '5m'))).toBe(false);
  });

  it("takes a CME market's minutes, whose daily breaks and minutes without a trade make longer gaps", async () => {
    const data = await mkdtemp(join(tmpdir(), 'deck-spacing-'));
    const ok = await runCli('tape', ['import', samplePath('ES-1m'), '--market', 'ES', '--tf', '1m'], data);
    expect(ok).toMatchObject({ code: 0, stdout: expect.stringMatching(/6826 bars read, 6826 new kept for ES 1m/) });
  });
});
