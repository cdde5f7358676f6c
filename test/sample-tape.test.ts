import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBarsCsv, tuplesFromBars } from '../engine/bars.js';
import { TapeArchive } from '../store/tape-archive.js';
import { FileTapeDays } from '../store/tape-days.js';
import { SAMPLE_DIR } from '../upstream/tape/sample.js';
import { startVenue, tapeRows, type VenueFixture } from './fixtures/venue.js';
import { signedIn, spawnDeck, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';

// The sample of real ES candles shipped in tape/sample/: a deck with no venue and an empty archive seeds its archive
// from it at first start, says so in its log and in every candle answer's coverage; a deck with a venue, a deck
// told DECK_SAMPLE_TAPE=off and an archive that already keeps bars are never seeded.

/** Monday 2013-10-07 13:30Z, the cash open, inside the sample (2013-10-06 22:00Z to 2013-10-11 21:15Z). */
const OPEN = Date.UTC(2013, 9, 7, 13, 30) / 1000;
const H = 3600;

async function shipped() {
  const read = readBarsCsv(await readFile(join(SAMPLE_DIR, 'ES-1m.csv'), 'utf8'), 60);
  if (!read.ok) throw new Error('the shipped sample does not read');
  return tuplesFromBars(read.bars);
}

const tapeFolders = async (dataDir: string) => (await readdir(join(dataDir, 'tape')).catch(() => [] as string[])).sort();

describe('the sample tape', () => {
  it('ships its licence, notice and provenance beside the candles, and stays small', async () => {
    const names = await readdir(SAMPLE_DIR);
    expect(names.sort()).toEqual(['BTC-1h-binance.csv', 'BTC-1h.csv', 'BTC-1m.csv', 'BTC-1s.csv', 'ES-1m.csv', 'ETH-1m.csv', 'LICENSE', 'NOTICE', 'PROVENANCE.md']);
    expect(await readFile(join(SAMPLE_DIR, 'LICENSE'), 'utf8')).toContain('Apache License');
    expect(await readFile(join(SAMPLE_DIR, 'NOTICE'), 'utf8')).toContain('QuantConnect');
    const csv = await readFile(join(SAMPLE_DIR, 'ES-1m.csv'));
    expect(csv.length).toBeLessThan(2 * 2 ** 20);
  });

  it('seeds an empty archive at first start with no venue, says so in the log, and not again at the next start', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'deck-sample-'));
    try {
      const first = await spawnDeck({ DECK_DATA: dataDir, DECK_SAMPLE_TAPE: 'on' });
      await first.stop();
      const seeded = first.before.split('\n').filter((l) => l.includes('"event":"sample_tape"') && l.includes('"market":"ES"'));
      expect(seeded).toHaveLength(1);
      const bars = (await shipped()).length;
      expect(JSON.parse(seeded[0]!)).toMatchObject({ market: 'ES', tf: '1m', bars, from: '2013-10-06T22:00:00.000Z', to: '2013-10-11T21:14:00.000Z' });
      expect(seeded[0]).toContain('DECK_SAMPLE_TAPE=off');
      expect(await tapeFolders(dataDir)).toContain('ES');
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
    deck = await testDeck({ DECK_SAMPLE_TAPE: 'on' });
    me = await signedIn(deck.url, 'forecaster');
  });
  afterAll(() => deck.stop());

  it('answers ES candles over HTTP from the sample, the very bars shipped, with coverage source sample', async () => {
    const { status, body } = await call(`${deck.url}/timetravel/candles/ES/1m?from=${OPEN}&to=${OPEN + H}`, { headers: me.bearer });
    expect(status).toBe(200);
    const rows = (await shipped()).filter((r) => r[0] >= OPEN && r[0] < OPEN + H);
    expect(body.candles).toEqual(rows.map(([t, o, h, l, c, v]) => ({ t, o, h, l, c, v })));
    expect(body.coverage).toMatchObject({ measured: true, bars: 60, complete: true, source: 'sample', sealed: true });
    // Built from the sample's minutes, a coarser timeframe says so too.
    const fives = await call(`${deck.url}/timetravel/candles/ES/5m?from=${OPEN}&to=${OPEN + H}`, { headers: me.bearer });
    expect(fives.body.coverage).toMatchObject({ bars: 12, source: 'sample', built_from: { tf: '1m', partial: 0 } });
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
    venue = await startVenue({ 'BTC/1m': tapeRows('BTC-1m') });
  });
  afterAll(() => venue.close());

  it('a deck with a venue configured keeps nothing from the sample', async () => {
    const deck = await testDeck({ DECK_SAMPLE_TAPE: 'on', DECK_TAPE_URL: venue.url });
    try {
      expect(await tapeFolders(deck.dataDir)).toEqual([]);
      const me = await signedIn(deck.url, 'trader');
      const from = Date.UTC(2025, 2, 2) / 1000;
      const { body } = await call(`${deck.url}/timetravel/candles/BTC/1m?from=${from}&to=${from + H}`, { headers: me.bearer });
      expect(body.coverage.source).toBe('venue');
    } finally {
      await deck.stop();
    }
  });

  it('DECK_SAMPLE_TAPE=off leaves the archive empty: ES candles answer 503 naming how to get a tape', async () => {
    const deck = await testDeck({ DECK_SAMPLE_TAPE: 'off' });
    try {
      expect(await tapeFolders(deck.dataDir)).toEqual([]);
      const me = await signedIn(deck.url, 'trader');
      const { status, body } = await call(`${deck.url}/timetravel/candles/ES/1m?from=${OPEN}&to=${OPEN + H}`, { headers: me.bearer });
      expect(status).toBe(503);
      expect(body.message).toContain('DECK_TAPE_URL');
    } finally {
      await deck.stop();
    }
  });

  it('an archive that keeps bars already is not seeded, and its bars answer with source archive', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'deck-sample-'));
    await new TapeArchive(new FileTapeDays(dataDir)).import('BTC', '1m', tapeRows('BTC-1m'));
    const deck = await testDeck({ DECK_SAMPLE_TAPE: 'on', DECK_DATA: dataDir });
    try {
      expect(await tapeFolders(dataDir)).toEqual(['BTC']);
      const me = await signedIn(deck.url, 'trader');
      const from = Date.UTC(2025, 2, 2) / 1000;
      const { body } = await call(`${deck.url}/timetravel/candles/BTC/1m?from=${from}&to=${from + H}`, { headers: me.bearer });
      expect(body.coverage).toMatchObject({ source: 'archive', complete: true });
    } finally {
      await deck.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
