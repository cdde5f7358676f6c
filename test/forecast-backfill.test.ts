import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calibrate, drawOf, issueAll, MIN_SCORED } from '../engine/forecast/index.js';
import { resample } from '../engine/resample.js';
import { FileLedger } from '../store/file-ledger.js';
import { tuplesFromBars } from '../engine/bars.js';
import { startVenue } from './fixtures/venue.js';
import { writeCsv } from './support/cli.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { stitchedMonth } from './support/tape-file.js';

const run = promisify(execFile);
/** Each command runs in a process of its own, transpiled on start: a loaded machine takes a while. */
const CLI_TIMEOUT = 120_000;
const ROOT = join(import.meta.dirname, '..');
const M5 = 300;
/**
 * A month of BTC minutes stitched from the shipped days in which every minute traded (test/support/tape-file.ts): a
 * month without a hole, so the backfill's look-back and a deck's on demand read the same bars.
 */
const month = stitchedMonth('BTC-1m');
const DAY0 = month.t[0]!;
/** 12:00:07 UTC on the month's 29th day, near its end. */
const T = DAY0 + 28 * 86_400 + 12 * 3600 + 7;
const BAR = Math.floor(T / M5) * M5;
const iso = (t: number) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');

/** The archived stretch a backfill walks: the month's first UTC day to the end of its last. */
const STRETCH_END = Math.floor(month.t[month.length - 1]! / 86_400) * 86_400 + 86_400;
/** What the engine's own walk gives over that stretch: the counts and calibration the CLI must print. */
const walk = issueAll(resample(month, 60, M5).bars, { market: 'BTC', tf: '5m' }, 0, STRETCH_END);
/** The calibration disclosed at T: measured on the envelopes scored by then, drawn as its worst cell. */
const atT = calibrate(
  walk.scores.filter((x) => x.scored_t <= T),
  { bar: M5 },
);

let data: string;
let cli: (args: string[]) => Promise<{ stdout: string; stderr: string }>;
let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;
const forecast = (path: string) => call(`${deck.url}/forecast/${path}`, { headers: me.bearer });

beforeAll(async () => {
  data = await mkdtemp(join(tmpdir(), 'deck-backfill-'));
  const env = { ...process.env, DECK_DATA: data };
  cli = (args) => run(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env });
  await cli(['cli/tape.ts', 'import', await writeCsv(data, 'month.csv', tuplesFromBars(month)), '--market', 'BTC', '--tf', '1m']);
});
afterAll(async () => {
  await deck?.stop();
});

describe('npm run forecast -- backfill', () => {
  it('refuses bad arguments and a pair with nothing archived', async () => {
    const usage = await cli(['cli/forecast.ts', 'backfill', '--market', 'BTC', '--tf', '1m']).catch((e: { code: number; stderr: string }) => e);
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringMatching(/usage: npm run forecast -- backfill/) });
    const bad = await cli(['cli/forecast.ts', 'backfill', '--market', 'BTC', '--tf', '5m', '--from', 'March']).catch((e: { code: number }) => e);
    expect(bad).toMatchObject({ code: 2 });
    const none = await cli(['cli/forecast.ts', 'backfill', '--market', 'ETH', '--tf', '5m']).catch((e: { code: number; stderr: string }) => e);
    expect(none).toMatchObject({ code: 1, stderr: expect.stringMatching(/nothing archived for ETH 5m/) });
  }, CLI_TIMEOUT);

  it('issues walk-forward over the whole archived stretch, scores, and prints the calibration', async () => {
    const { stdout } = await cli(['cli/forecast.ts', 'backfill', '--market', 'BTC', '--tf', '5m']);
    const { n, ece, coverage } = walk.calibration;
    expect(stdout).toContain(`${walk.issues.length} envelopes issued walk-forward, ${walk.issues.length} new, 0 already there; ${walk.unissued} bars with none`);
    expect(stdout).toContain(`${walk.scores.length} newly scored`);
    const drawn = drawOf(walk.calibration);
    expect(stdout).toContain(`calibration: n ${n}, ece ${ece}, coverage ${coverage}: ${drawn.draw}, ${drawn.label}`);
    expect(walk.issues.length).toBeGreaterThan(8500);
  }, CLI_TIMEOUT);

  it('appends to a hash-chained ledger, a few hundred envelopes per entry', async () => {
    const ledger = await FileLedger.open<{ envelopes: { issued_t: number }[] }>(data, 'forecast-BTC-5m');
    expect(ledger.verify()).toBeNull();
    const sizes = ledger.all.map((e) => e.entry.envelopes.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(walk.issues.length);
    expect(Math.max(...sizes)).toBe(500);
    expect(ledger.all.flatMap((e) => e.entry.envelopes.map((x) => x.issued_t))).toEqual(walk.issues.map((i) => i.issued_t));
  });

  it('skips what is there already', async () => {
    const [from, to] = [iso(DAY0 + 7 * 86_400), iso(DAY0 + 8 * 86_400)];
    const { stdout } = await cli(['cli/forecast.ts', 'backfill', '--market', 'BTC', '--tf', '5m', '--from', from, '--to', to.slice(0, 10)]);
    expect(stdout).toContain(`${from} to ${to}`);
    expect(stdout).toContain('288 envelopes issued walk-forward, 0 new, 288 already there');
    expect(stdout).toContain('0 newly scored');
  }, CLI_TIMEOUT);
});

describe('a deck on the backfilled ledger', () => {
  beforeAll(async () => {
    deck = await testDeck({ DECK_DATA: data });
    me = await signedIn(deck.url, 'calibrated');
  });

  it('draws the envelope as its calibration measured on the month by t says', async () => {
    const { status, body } = await forecast(`BTC/5m?t=${T}`);
    expect(status).toBe(200);
    expect(drawOf(atT).label).not.toBe('unmeasured');
    expect(body).toMatchObject({ ...drawOf(atT), age_bars: 0, served: { issued_now: false, recorded: true }, envelope: { issued_t: BAR } });
    expect(body.envelope.calibration).toEqual(atT);
  });

  it(`reads unmeasured until every cell rests on ${MIN_SCORED} effective outcomes by t, not ${MIN_SCORED} envelopes`, async () => {
    const first = walk.issues[0]!.issued_t;
    // The k-th envelope is scored when its 24th bar closes: 24 bars after it was issued.
    const thirtieth = first + 24 * M5 + (MIN_SCORED - 1) * M5;
    const at30 = await forecast(`BTC/5m?t=${thirtieth}`);
    expect(at30.body.envelope.calibration.n).toBe(MIN_SCORED);
    // Thirty envelopes issued bar after bar rest on 30 / 6 outcomes at best: still unmeasured.
    expect(at30.body).toMatchObject({ draw: 'none', label: 'unmeasured' });
    expect(Math.max(...at30.body.envelope.calibration.touch.map((t: { effective: number }) => t.effective))).toBeLessThan(MIN_SCORED);
    // The first t at which every cell is measured: the band and the 24-bar cells, the last, need about 30 · 24 envelopes.
    const times = walk.scores.map((s) => s.scored_t).sort((a, b) => a - b);
    const measured = times.find((t) => calibrate(walk.scores, { bar: M5, asOf: t }).band.effective >= MIN_SCORED)!;
    const before = await forecast(`BTC/5m?t=${measured - 1}`);
    expect(before.body.envelope.calibration.band).toMatchObject({ effective: MIN_SCORED - 1, label: 'unmeasured' });
    // Before then the pair reads unmeasured, or not calibrated where a measured cell failed: never calibrated.
    expect(['unmeasured', 'not calibrated']).toContain(before.body.label);
    const at = await forecast(`BTC/5m?t=${measured}`);
    expect(at.body.envelope.calibration.band.effective).toBe(MIN_SCORED);
    expect(at.body.envelope.calibration.touch.every((t: { label: string }) => t.label !== 'unmeasured')).toBe(true);
    expect(at.body.label).not.toBe('unmeasured');
    expect(at.body.envelope.calibration.n).toBeGreaterThan(20 * MIN_SCORED);
  });

  it('answers history in pages of at most 2000', async () => {
    const page = await forecast(`BTC/5m?t=${T}&history=1&from=0`);
    expect(page.body).toMatchObject({ truncated: true, draw: drawOf(atT).draw });
    expect(page.body.issues).toHaveLength(2000);
    expect(page.body.issues[0]).toEqual(walk.issues[0]);
    const last = page.body.issues[1999].issued_t;
    const next = await forecast(`BTC/5m?t=${T}&history=1&from=${last + 1}`);
    expect(next.body.issues[0]).toEqual(walk.issues[2000]);
  });

  it('with no newer bars to issue from, answers the newest envelope and its age', async () => {
    // The backfill walks issue times in [from, to): the envelope at the last bar's close, at the stretch's end, is
    // the deck's to issue on demand, once; after it the deck has no newer bar to issue from.
    expect(walk.issues.at(-1)!.issued_t).toBe(STRETCH_END - M5);
    const later = STRETCH_END + 3 * 86_400 + 40;
    const first = await forecast(`BTC/5m?t=${later}`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ envelope: { issued_t: STRETCH_END }, served: { issued_now: true }, age_bars: 3 * 288 });
    const again = await forecast(`BTC/5m?t=${later + M5}`);
    expect(again.body).toMatchObject({ envelope: { issued_t: STRETCH_END }, served: { issued_now: false }, age_bars: 3 * 288 + 1 });
  });

  it('states the measured row in the lens', async () => {
    const { body } = await call(`${deck.url}/forecast/health`, { headers: me.bearer });
    const row = body.rows.find((r: { market: string; tf: string }) => r.market === 'BTC' && r.tf === '5m');
    expect(row).toMatchObject({ n: walk.scores.length, ece: walk.calibration.ece, coverage: walk.calibration.coverage, ...drawOf(walk.calibration) });
    expect(row.newest_issued_t).toBe(STRETCH_END);
  });

  it('holds the same envelope a deck issues on demand from the venue at that time', async () => {
    const venue = await startVenue({ 'BTC/1m': tuplesFromBars(month) });
    const live = await testDeck({ DECK_TAPE_URL: venue.url });
    try {
      const who = await signedIn(live.url, 'on-demand');
      const issued = await call(`${live.url}/forecast/BTC/5m?t=${T}`, { headers: who.bearer });
      const backfilled = await forecast(`BTC/5m?t=${T}`);
      expect(issued.body.served.issued_now).toBe(true);
      const { calibration: _a, ...onDemand } = issued.body.envelope;
      const { calibration: _b, ...kept } = backfilled.body.envelope;
      expect(onDemand).toEqual(kept);
    } finally {
      await live.stop();
      await venue.close();
    }
  });
});
