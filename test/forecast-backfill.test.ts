import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAll, MIN_SCORED } from '../engine/forecast/index.js';
import { resample } from '../engine/resample.js';
import { FileLedger } from '../store/file-ledger.js';
import { startVenue, tapeRows } from './fixtures/venue.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { tapeFile } from './support/tape-file.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const M5 = 300;
/** 2025-03-31T12:00:07Z, near the end of the real BTC 1m month. */
const T = Date.UTC(2025, 2, 31, 12, 0, 7) / 1000;
const BAR = Math.floor(T / M5) * M5;

/** What the engine's own walk gives over the whole real month: the counts and calibration the CLI must print. */
const walk = issueAll(resample(tapeFile('BTC-1m'), 60, M5).bars, { market: 'BTC', tf: '5m' }, 0, Number.MAX_SAFE_INTEGER);

let data: string;
let cli: (args: string[]) => Promise<{ stdout: string; stderr: string }>;
let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;
const forecast = (path: string) => call(`${deck.url}/forecast/${path}`, { headers: me.bearer });

beforeAll(async () => {
  data = await mkdtemp(join(tmpdir(), 'deck-backfill-'));
  const env = { ...process.env, DECK_DATA: data };
  cli = (args) => run(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env });
  await cli(['cli/tape.ts', 'import', join(ROOT, '..', 'shared', 'tape', 'BTC-1m.csv'), '--market', 'BTC', '--tf', '1m']);
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
  });

  it('issues walk-forward over the whole archived stretch, scores, and prints the calibration', async () => {
    const { stdout } = await cli(['cli/forecast.ts', 'backfill', '--market', 'BTC', '--tf', '5m']);
    const { n, ece, coverage } = walk.calibration;
    expect(stdout).toContain(`${walk.issues.length} envelopes issued walk-forward, ${walk.issues.length} new, 0 already there; ${walk.unissued} bars with none`);
    expect(stdout).toContain(`${walk.scores.length} newly scored`);
    expect(stdout).toContain(`calibration: n ${n}, ece ${ece}, coverage ${coverage}: solid, calibrated`);
    expect(walk.issues.length).toBeGreaterThan(8500);
  });

  it('appends to a hash-chained ledger, a few hundred envelopes per entry', async () => {
    const ledger = await FileLedger.open<{ envelopes: { issued_t: number }[] }>(data, 'forecast-BTC-5m');
    expect(ledger.verify()).toBeNull();
    const sizes = ledger.all.map((e) => e.entry.envelopes.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(walk.issues.length);
    expect(Math.max(...sizes)).toBe(500);
    expect(ledger.all.flatMap((e) => e.entry.envelopes.map((x) => x.issued_t))).toEqual(walk.issues.map((i) => i.issued_t));
  });

  it('skips what is there already', async () => {
    const { stdout } = await cli(['cli/forecast.ts', 'backfill', '--market', 'BTC', '--tf', '5m', '--from', '2025-03-10T00:00:00Z', '--to', '2025-03-11']);
    expect(stdout).toContain('2025-03-10T00:00:00Z to 2025-03-11T00:00:00Z');
    expect(stdout).toContain('288 envelopes issued walk-forward, 0 new, 288 already there');
    expect(stdout).toContain('0 newly scored');
  });
});

describe('a deck on the backfilled ledger', () => {
  beforeAll(async () => {
    deck = await testDeck({ DECK_DATA: data });
    me = await signedIn(deck.url, 'calibrated');
  });

  it('draws the envelope solid: its calibration is measured on the real month', async () => {
    const { status, body } = await forecast(`BTC/5m?t=${T}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ draw: 'solid', label: 'calibrated', age_bars: 0, served: { issued_now: false, recorded: true }, envelope: { issued_t: BAR } });
    const known = walk.scores.filter((s) => s.scored_t <= T).length;
    expect(body.envelope.calibration.n).toBe(known);
    expect(body.envelope.calibration.ece).toBeLessThan(0.05);
  });

  it(`reads unmeasured until ${MIN_SCORED} envelopes are scored by t`, async () => {
    const first = walk.issues[0]!.issued_t;
    // The k-th envelope is scored when its 24th bar closes: 24 bars after it was issued.
    const thirtieth = first + 24 * M5 + (MIN_SCORED - 1) * M5;
    const before = await forecast(`BTC/5m?t=${thirtieth - 1}`);
    expect(before.body.envelope.calibration.n).toBe(MIN_SCORED - 1);
    expect(before.body).toMatchObject({ draw: 'none', label: 'unmeasured' });
    const at = await forecast(`BTC/5m?t=${thirtieth}`);
    expect(at.body.envelope.calibration.n).toBe(MIN_SCORED);
    expect(at.body.label).not.toBe('unmeasured');
  });

  it('answers history in pages of at most 2000', async () => {
    const page = await forecast(`BTC/5m?t=${T}&history=1&from=0`);
    expect(page.body).toMatchObject({ truncated: true, draw: 'solid' });
    expect(page.body.issues).toHaveLength(2000);
    expect(page.body.issues[0]).toEqual(walk.issues[0]);
    const last = page.body.issues[1999].issued_t;
    const next = await forecast(`BTC/5m?t=${T}&history=1&from=${last + 1}`);
    expect(next.body.issues[0]).toEqual(walk.issues[2000]);
  });

  it('with no newer bars to issue from, answers the newest envelope and its age', async () => {
    const newest = walk.issues.at(-1)!.issued_t;
    const later = newest + 3 * 86_400 + 40;
    const { status, body } = await forecast(`BTC/5m?t=${later}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ envelope: { issued_t: newest }, served: { issued_now: false }, age_bars: 3 * 288 });
  });

  it('states the measured row in the lens', async () => {
    const { body } = await call(`${deck.url}/forecast/health`, { headers: me.bearer });
    const row = body.rows.find((r: { market: string; tf: string }) => r.market === 'BTC' && r.tf === '5m');
    expect(row).toMatchObject({ n: walk.scores.length, ece: walk.calibration.ece, coverage: walk.calibration.coverage, draw: 'solid', label: 'calibrated' });
    expect(row.newest_issued_t).toBe(walk.issues.at(-1)!.issued_t);
  });

  it('holds the same envelope a deck issues on demand from the venue at that time', async () => {
    const venue = await startVenue({ 'BTC/1m': tapeRows('BTC-1m') });
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
