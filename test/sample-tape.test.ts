import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBarsCsv, tuplesFromBars } from '../engine/bars.js';
import { TapeArchive } from '../store/tape-archive.js';
import { FileTapeDays } from '../store/tape-days.js';
import { SAMPLE_DIR } from '../upstream/tape/sample.js';
import { startVenue, sampleRows, type VenueFixture } from './fixtures/venue.js';
import { answered } from './support/answers.js';
import { signedIn, spawnDeck, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { legacyClient, refusalIn } from './support/mcp.js';

// The sample of real candles shipped in tape/sample/: a deck with no venue and an empty archive seeds its archive
// from every file at first start (ES 1m, BTC 1m and 1h, ETH 1m, and BTC 15s built from its 1s file), says so in its
// log, in every candle answer's coverage and in the catalogue, and warns before a forge is spent on a market it cannot
// rehearse; a deck with a venue, a deck told DECK_SAMPLE_TAPE=off and an archive that already keeps bars are never
// seeded.

/** Monday 2013-10-07 13:30Z, the cash open, inside the sample (2013-10-06 22:00Z to 2013-10-11 21:15Z). */
const OPEN = Date.UTC(2013, 9, 7, 13, 30) / 1000;
const H = 3600;
const utc = (s: string) => Date.parse(`${s}Z`) / 1000;

async function shipped(name: string, len = 60) {
  const read = readBarsCsv(await readFile(join(SAMPLE_DIR, `${name}.csv`), 'utf8'), len);
  if (!read.ok) throw new Error(`the shipped ${name} does not read`);
  return tuplesFromBars(read.bars);
}

const tapeFolders = async (dataDir: string) => (await readdir(join(dataDir, 'tape')).catch(() => [] as string[])).sort();
/** The words of a rule on a market, at five minutes, read whole by the embedded reader. */
const ruleOn = (market: string) => `${market} on the 5 minute chart, long and short: go long when the 9 EMA crosses above the 21 EMA, go short when the 9 EMA crosses below the 21 EMA. Stop 2 ATR(14). Target 2R.`;

describe('the sample tape', () => {
  it('ships its licence, notice and provenance beside the candles, and stays small', async () => {
    const names = await readdir(SAMPLE_DIR);
    expect(names.sort()).toEqual(['BTC-1h-binance.csv', 'BTC-1h.csv', 'BTC-1m.csv', 'BTC-1s.csv', 'ES-1m.csv', 'ETH-1m.csv', 'LICENSE', 'NOTICE', 'PROVENANCE.md']);
    expect(await readFile(join(SAMPLE_DIR, 'LICENSE'), 'utf8')).toContain('Apache License');
    expect(await readFile(join(SAMPLE_DIR, 'NOTICE'), 'utf8')).toContain('QuantConnect');
    for (const name of names) expect((await readFile(join(SAMPLE_DIR, name))).length, name).toBeLessThan(2 * 2 ** 20);
  });

  // Two decks started in turn, in their own processes.
  it('seeds an empty archive at first start with no venue from every file, says what it seeded in the log, and not again at the next start', { timeout: 120_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'deck-sample-'));
    try {
      const first = await spawnDeck({ DECK_DATA: dataDir, DECK_SAMPLE_TAPE: 'on' });
      await first.stop();
      const seeded = first.before
        .split('\n')
        .filter((l) => l.includes('"event":"sample_tape"'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const iso = (s: string) => new Date(utc(s) * 1000).toISOString();
      const stretch = (from: string, to: string) => ({ from: iso(from), to: iso(to) });
      // One line per file, with the bars it holds and the stretches of days it vouches for (PROVENANCE.md's).
      expect(seeded).toEqual([
        expect.objectContaining({ file: 'tape/sample/BTC-1h-binance.csv', market: 'BTC', tf: '1h', bars: (await shipped('BTC-1h-binance', 3600)).length, stretches: [stretch('2018-05-01T00:00', '2018-05-06T00:00')] }),
        expect.objectContaining({ file: 'tape/sample/BTC-1h.csv', market: 'BTC', tf: '1h', bars: 733, stretches: [stretch('2013-10-01T00:00', '2013-10-31T22:00')] }),
        expect.objectContaining({
          file: 'tape/sample/BTC-1m.csv',
          market: 'BTC',
          tf: '1m',
          bars: 12_423,
          stretches: [
            stretch('2016-10-07T00:00', '2016-10-10T00:00'),
            stretch('2017-09-03T00:00', '2017-09-05T00:00'),
            stretch('2017-12-17T00:00', '2017-12-18T00:00'),
            stretch('2018-04-04T00:00', '2018-04-07T00:00'),
          ],
        }),
        expect.objectContaining({ file: 'tape/sample/BTC-1s.csv', market: 'BTC', tf: '15s', built_from: { tf: '1s', bars: 11_520 }, stretches: [stretch('2016-10-07T00:00', '2016-10-10T00:00')] }),
        expect.objectContaining({ file: 'tape/sample/ES-1m.csv', market: 'ES', tf: '1m', bars: 6826, stretches: [stretch('2013-10-06T22:00', '2013-10-11T21:15')] }),
        expect.objectContaining({ file: 'tape/sample/ETH-1m.csv', market: 'ETH', tf: '1m', bars: 5329, stretches: [stretch('2017-09-03T00:00', '2017-09-05T00:00'), stretch('2018-04-04T00:00', '2018-04-06T00:00')] }),
      ]);
      for (const line of seeded) expect(line.why).toContain('DECK_SAMPLE_TAPE=off');
      expect(await tapeFolders(dataDir)).toEqual(['BTC', 'ES', 'ETH']);
      expect((await readdir(join(dataDir, 'tape', 'BTC'))).sort()).toEqual(['15s', '1h', '1m']);
      const again = await spawnDeck({ DECK_DATA: dataDir, DECK_SAMPLE_TAPE: 'on' });
      await again.stop();
      expect(again.before).not.toContain('sample_tape');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a deck with no venue, seeded from the sample', () => {
  let deck: TestDeck;
  let me: Awaited<ReturnType<typeof signedIn>>;
  beforeAll(async () => {
    // Tried as a newcomer tries it on their own machine: the local profile, so a free principal forges past three a day.
    deck = await testDeck({ DECK_SAMPLE_TAPE: 'on', DECK_PROFILE: 'local' });
    me = await signedIn(deck.url, 'forecaster');
  });
  afterAll(() => deck.stop());

  it('answers ES candles over HTTP from the sample, the very bars shipped, with coverage source sample', async () => {
    const { status, body } = await call(`${deck.url}/timetravel/candles/ES/1m?from=${OPEN}&to=${OPEN + H}`, { headers: me.bearer });
    expect(status).toBe(200);
    const rows = (await shipped('ES-1m')).filter((r) => r[0] >= OPEN && r[0] < OPEN + H);
    expect(body.candles).toEqual(rows.map(([t, o, h, l, c, v]) => ({ t, o, h, l, c, v })));
    expect(body.coverage).toMatchObject({ measured: true, bars: 60, complete: true, source: 'sample', sealed: true });
    // Built from the sample's minutes, a coarser timeframe says so too.
    const fives = await call(`${deck.url}/timetravel/candles/ES/5m?from=${OPEN}&to=${OPEN + H}`, { headers: me.bearer });
    expect(fives.body.coverage).toMatchObject({ bars: 12, source: 'sample', built_from: { tf: '1m', partial: 0 } });
  });

  it.each([
    ['BTC', '1m', 'BTC-1m', '2018-04-05T12:00'],
    ['ETH', '1m', 'ETH-1m', '2017-09-04T12:00'],
    ['BTC', '1h', 'BTC-1h', '2013-10-08T00:00'],
    ['BTC', '1h', 'BTC-1h-binance', '2018-05-02T00:00'],
  ])('answers %s %s from the sample (%s), the very bars shipped', async (market, tf, file, from) => {
    const len = tf === '1h' ? H : 60;
    const [a, b] = [utc(from), utc(from) + 12 * len];
    const { status, body } = await call(`${deck.url}/timetravel/candles/${market}/${tf}?from=${a}&to=${b}`, { headers: me.bearer });
    expect(status).toBe(200);
    const rows = (await shipped(file, len)).filter((r) => r[0] >= a && r[0] < b);
    expect(rows).toHaveLength(12);
    expect(body.candles).toEqual(rows.map(([t, o, h, l, c, v]) => ({ t, o, h, l, c, v })));
    expect(body.coverage).toMatchObject({ source: 'sample', complete: true, sealed: true });
  });

  it('answers BTC 15s bars built from the shipped seconds, each the trades of its 15 seconds', async () => {
    const from = utc('2016-10-07T12:00');
    const { status, body } = await call(`${deck.url}/timetravel/candles/BTC/15s?from=${from}&to=${from + H}`, { headers: me.bearer });
    expect(status).toBe(200);
    expect(body.coverage).toMatchObject({ source: 'sample', measured: true, sealed: true, built_from: null });
    const seconds = (await shipped('BTC-1s', 1)).filter((r) => r[0] >= from && r[0] < from + H);
    const buckets = new Map<number, typeof seconds>();
    for (const r of seconds) buckets.set(r[0] - (r[0] % 15), [...(buckets.get(r[0] - (r[0] % 15)) ?? []), r]);
    // By hand: open of the first second, high and low of all, close of the last, volume summed.
    expect(body.candles).toEqual(
      [...buckets].map(([t, rs]) => ({
        t,
        o: rs[0]![1],
        h: Math.max(...rs.map((r) => r[2])),
        l: Math.min(...rs.map((r) => r[3])),
        c: rs.at(-1)![4],
        v: expect.closeTo(rs.reduce((s, r) => s + r[5], 0), 9),
      })),
    );
    // Seconds without a trade are many: the 15s buckets without one are known absent, not unknown.
    expect(body.coverage.missing.bars).toBe(240 - buckets.size);
    expect(body.coverage.unmeasured.bars).toBe(0);
  });

  it('lists what it holds in the catalogue: each market and timeframe, its windows, the sample its source', async () => {
    const { status, body } = await call(`${deck.url}/catalogue`);
    expect(status).toBe(200);
    const window = (from: string, to: string) => ({ from: utc(from), to: utc(to), source: 'sample' });
    expect(body.tape).toEqual({
      venue: null,
      held: [
        { market: 'ES', tf: '1m', bars: 6826, windows: [window('2013-10-06T22:00', '2013-10-11T21:15')] },
        { market: 'BTC', tf: '15s', bars: 9134, windows: [window('2016-10-07T00:00', '2016-10-10T00:00')] },
        {
          market: 'BTC',
          tf: '1m',
          bars: 12_423,
          windows: [window('2016-10-07T00:00', '2016-10-10T00:00'), window('2017-09-03T00:00', '2017-09-05T00:00'), window('2017-12-17T00:00', '2017-12-18T00:00'), window('2018-04-04T00:00', '2018-04-07T00:00')],
        },
        { market: 'BTC', tf: '1h', bars: 853, windows: [window('2013-10-01T00:00', '2013-10-31T22:00'), window('2018-05-01T00:00', '2018-05-06T00:00')] },
        { market: 'ETH', tf: '1m', bars: 5329, windows: [window('2017-09-03T00:00', '2017-09-05T00:00'), window('2018-04-04T00:00', '2018-04-06T00:00')] },
      ],
    });
    // The same over MCP, keyless.
    const client = await legacyClient(`${deck.url}/mcp/candles`);
    try {
      const listed = await client.callTool({ name: 'catalogue', arguments: {} });
      expect((answered('catalogue', listed.structuredContent) as { tape: unknown }).tape).toEqual(body.tape);
    } finally {
      await client.close();
    }
  });

  it('warns when a rule is read or forged on a market it holds no bars of, naming what it holds; not on one it holds', async () => {
    const client = await legacyClient(`${deck.url}/mcp/studio`, me.bearer);
    try {
      const nq = (await client.callTool({ name: 'workflow_read', arguments: { text: ruleOn('NQ') } })).structuredContent as { warnings?: { code: string; message: string }[] };
      expect(nq.warnings).toEqual([{ code: 'market_not_held', message: expect.stringContaining('the tape holds no 5m bars of NQ') }]);
      expect(nq.warnings![0]!.message).toMatch(/no venue is configured \(DECK_TAPE_URL\): it holds ES 1m; BTC 15s, 1m, 1h; ETH 1m/);
      const es = (await client.callTool({ name: 'workflow_read', arguments: { text: ruleOn('ES') } })).structuredContent as Record<string, unknown>;
      expect(es).not.toHaveProperty('warnings');
    } finally {
      await client.close();
    }
    const forged = await call(`${deck.url}/forge`, { body: { intent: ruleOn('YM') }, headers: me.bearer });
    expect(forged.status).toBe(200);
    expect(forged.body.warnings).toEqual([{ code: 'market_not_held', message: expect.stringContaining('the tape holds no 5m bars of YM') }]);
    const held = await call(`${deck.url}/forge`, { body: { intent: ruleOn('ETH') }, headers: me.bearer });
    expect(held.body).not.toHaveProperty('warnings');
  });

  it('refuses a rehearsal on a market it holds no bars of with 422 naming the market and what it holds, over REST and MCP', async () => {
    const seed = (await call(`${deck.url}/forge`, { body: { intent: ruleOn('NQ') }, headers: me.bearer })).body.seed_hash as string;
    for (const body of [{ seed_hash: seed }, { seed_hash: seed, to: OPEN }]) {
      const { status, body: refused } = await call(`${deck.url}/studio/rehearse`, { body, headers: me.bearer });
      expect(status).toBe(422);
      expect(refused.problems).toEqual([{ field: 'market', message: expect.stringMatching(/^the tape holds no 5m bars of NQ, .* it holds ES 1m; BTC 15s, 1m, 1h; ETH 1m/) }]);
    }
    const client = await legacyClient(`${deck.url}/mcp/studio`, me.bearer);
    try {
      const refused = refusalIn(await client.callTool({ name: 'rehearse', arguments: { seed_hash: seed } }));
      expect(refused).toMatchObject({ status: 422, error: 'bad_input', problems: [{ field: 'market' }] });
      expect(refused.message).toContain('NQ');
    } finally {
      await client.close();
    }
    // The same rule on a market it holds rehearses; a window of it the sample does not hold is 422 saying what it holds.
    expect((await call(`${deck.url}/studio/rehearse`, { body: { seed_hash: seed, market: 'ES' }, headers: me.bearer })).status).toBe(200);
    const outside = await call(`${deck.url}/studio/rehearse`, { body: { seed_hash: seed, market: 'ES', to: Date.UTC(2014, 0, 10) / 1000 }, headers: me.bearer });
    expect(outside.status).toBe(422);
    expect(outside.body).toMatchObject({ error: 'bad_window', problems: [{ field: 'to' }], held: [{ market: 'ES', tf: '1m', windows: [{ source: 'sample' }] }] });
    expect(outside.body.message).toContain('1m 2013-10-06 22:00 to 2013-10-11 21:15 (sample)');
  });

  it('rehearses, draws a plate and forecasts from the first minute', async () => {
    const words = (await call(`${deck.url}/forge?onboard=ema-cross`, { headers: me.bearer })).body.intent as string;
    const forged = await call(`${deck.url}/forge`, { body: { intent: words }, headers: me.bearer });
    expect(forged.status).toBe(200);
    // No window named: up to the newest bar the tape holds, the sample's last outside a halt (16:00 CT, 21:00Z).
    const rehearsal = await call(`${deck.url}/studio/rehearse`, { body: { seed_hash: forged.body.seed_hash, market: 'ES', hours: 24 }, headers: me.bearer });
    expect(rehearsal.status).toBe(200);
    expect(rehearsal.body).toMatchObject({ market: 'ES', window: { to: Date.UTC(2013, 9, 11, 21) / 1000 } });
    expect(rehearsal.body.trades.length).toBeGreaterThan(0);
    // On its own market, BTC: up to the newest shipped minute.
    const btc = await call(`${deck.url}/studio/rehearse`, { body: { seed_hash: forged.body.seed_hash, hours: 24 }, headers: me.bearer });
    expect(btc.status).toBe(200);
    expect(btc.body).toMatchObject({ market: 'BTC', window: { to: Date.UTC(2018, 3, 7) / 1000 } });
    const plate = await call(`${deck.url}/plates`, { body: { market: 'ES', tf: '5m', from: '2013-10-08T13:00:00Z', to: '2013-10-08T21:00:00Z' }, headers: me.bearer });
    expect(plate.status).toBe(200);
    const forecast = await call(`${deck.url}/forecast/ES/5m?t=${Date.UTC(2013, 9, 11, 18) / 1000}`, { headers: me.bearer });
    expect(forecast.status).toBe(200);
    expect(forecast.body.envelope).toMatchObject({ market: 'ES', tf: '5m', issued_t: Date.UTC(2013, 9, 11, 18) / 1000 });
  });
});

describe('decks that are not seeded', () => {
  let venue: VenueFixture;
  beforeAll(async () => {
    venue = await startVenue({ 'BTC/1m': sampleRows('BTC-1m') });
  });
  afterAll(() => venue.close());

  it('a deck with a venue configured keeps nothing from the sample, and its catalogue names the venue', async () => {
    const deck = await testDeck({ DECK_SAMPLE_TAPE: 'on', DECK_TAPE_URL: venue.url });
    try {
      expect(await tapeFolders(deck.dataDir)).toEqual([]);
      expect((await call(`${deck.url}/catalogue`)).body.tape).toEqual({ venue: 'venue', held: [] });
      const me = await signedIn(deck.url, 'trader');
      const from = Date.UTC(2018, 3, 5) / 1000;
      const { body } = await call(`${deck.url}/timetravel/candles/BTC/1m?from=${from}&to=${from + H}`, { headers: me.bearer });
      expect(body.coverage.source).toBe('venue');
      // What the venue answered is kept, and the catalogue says so at its next read.
      expect((await call(`${deck.url}/catalogue`)).body.tape.held).toEqual([{ market: 'BTC', tf: '1m', bars: 60, windows: [{ from, to: from + H, source: 'venue' }] }]);
      // A forge on a market the venue may serve carries no warning: the venue is asked.
      expect((await call(`${deck.url}/forge`, { body: { intent: ruleOn('NQ') }, headers: me.bearer })).body).not.toHaveProperty('warnings');
    } finally {
      await deck.stop();
    }
  });

  it('DECK_SAMPLE_TAPE=off leaves the archive empty: ES candles answer 503 naming how to get a tape, a rehearsal 422 saying nothing is held', async () => {
    const deck = await testDeck({ DECK_SAMPLE_TAPE: 'off' });
    try {
      expect(await tapeFolders(deck.dataDir)).toEqual([]);
      expect((await call(`${deck.url}/catalogue`)).body.tape).toEqual({ venue: null, held: [] });
      const me = await signedIn(deck.url, 'trader');
      const { status, body } = await call(`${deck.url}/timetravel/candles/ES/1m?from=${OPEN}&to=${OPEN + H}`, { headers: me.bearer });
      expect(status).toBe(503);
      expect(body.message).toContain('DECK_TAPE_URL');
      const forged = await call(`${deck.url}/forge`, { body: { intent: ruleOn('ES') }, headers: me.bearer });
      expect(forged.body.warnings[0].message).toContain('it holds nothing');
      const refused = await call(`${deck.url}/studio/rehearse`, { body: { seed_hash: forged.body.seed_hash }, headers: me.bearer });
      expect(refused.status).toBe(422);
      expect(refused.body.message).toMatch(/no 5m bars of ES, .*no venue is configured \(DECK_TAPE_URL\): it holds nothing/);
    } finally {
      await deck.stop();
    }
  });

  it('an archive that keeps bars already is not seeded, and its bars answer with source archive, listed as imported', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'deck-sample-'));
    await new TapeArchive(new FileTapeDays(dataDir)).import('BTC', '1m', sampleRows('BTC-1m'));
    const deck = await testDeck({ DECK_SAMPLE_TAPE: 'on', DECK_DATA: dataDir });
    try {
      expect(await tapeFolders(dataDir)).toEqual(['BTC']);
      const me = await signedIn(deck.url, 'trader');
      const from = Date.UTC(2018, 3, 5) / 1000;
      const { body } = await call(`${deck.url}/timetravel/candles/BTC/1m?from=${from}&to=${from + H}`, { headers: me.bearer });
      expect(body.coverage).toMatchObject({ source: 'archive', complete: true });
      const held = (await call(`${deck.url}/catalogue`)).body.tape.held;
      expect(held).toHaveLength(1);
      expect(held[0].windows.map((w: { source: string }) => w.source)).toEqual(['import', 'import', 'import', 'import']);
    } finally {
      await deck.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
