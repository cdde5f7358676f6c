import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tuplesFromBars } from '../engine/bars.js';
import { assertNoDirection, calibrate, DEFAULT_OPTIONS, drawOf, issueAll, MIN_SCORED, type Calibration, type Envelope } from '../engine/forecast/index.js';
import { FileLedger } from '../store/file-ledger.js';
import { runCli, writeCsv } from './support/cli.js';
import { pooledEce } from './support/forecast-scores.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { grantsFile, legacyClient } from './support/mcp.js';
import { sampleFile } from './support/tape-file.js';

// The shipped Bitfinex BTC 1h month (October 2013), imported and backfilled as an operator would, then read from a
// deck: every cell of the calibration is measured, drawn and labelled on its own outcomes, counted honestly.

const H = 3600;
/** Each command runs in a process of its own, transpiled on start: a loaded machine takes a while. */
const CLI_TIMEOUT = 120_000;
const SHIPPED = join(import.meta.dirname, '..', 'tape', 'sample', 'BTC-1h.csv');
/** 2013-10-31T12:00:00Z: near the end of the shipped month, before its last issue (a look back: nothing is issued). */
const T = Date.UTC(2013, 9, 31, 12) / 1000;

const bars = sampleFile('BTC-1h');
/** What the engine's walk gives over the whole shipped month, revision 2 and its first stage alone. */
const walk = issueAll(bars, { market: 'BTC', tf: '1h' }, 0, Number.MAX_SAFE_INTEGER);
const firstStage = issueAll(bars, { market: 'BTC', tf: '1h' }, 0, Number.MAX_SAFE_INTEGER, { ...DEFAULT_OPTIONS, recalibration: 0 });

/** How the command line prints a touch cell. */
const printed = (t: Calibration['touch'][number]) => `${t.atr} ATR within ${t.within}`.padEnd(20) + ` n ${t.n}, effective ${t.effective}: ece ${t.ece!.toFixed(4)}`;

let data: string;
let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;
const forecast = (path: string) => call(`${deck.url}/forecast/${path}`, { headers: me.bearer });

beforeAll(async () => {
  data = await mkdtemp(join(tmpdir(), 'deck-cells-'));
  expect((await runCli('tape', ['import', SHIPPED, '--market', 'BTC', '--tf', '1h'], data)).code).toBe(0);
});
afterAll(async () => {
  await deck?.stop();
});

describe('npm run forecast, cell by cell, on the shipped BTC 1h month', () => {
  it('backfill prints every cell with its effective outcomes and label, and the pair as its worst', async () => {
    const { code, stdout } = await runCli('forecast', ['backfill', '--market', 'BTC', '--tf', '1h'], data);
    expect(code).toBe(0);
    const c = walk.calibration;
    expect(stdout).toContain(`${walk.issues.length} envelopes issued walk-forward, ${walk.issues.length} new`);
    expect(stdout).toContain(`calibration: n ${c.n}, ece ${c.ece}, coverage ${c.coverage}: none, unmeasured`);
    for (const t of c.touch) expect(stdout).toContain(printed(t));
    expect(stdout).toContain(`${'band, 24 bars'.padEnd(20)} n ${c.n}, effective ${c.band.effective}: coverage ${c.band.coverage!.toFixed(4)} of 0.8000`);
    expect(stdout).toMatch(/0\.5 ATR within 6 +n \d+, effective 57: .*: solid, calibrated/);
    expect(stdout).toMatch(/2 ATR within 24 +n \d+, effective 15: .*: none, unmeasured/);
    expect(stdout).toContain('the pair (its worst cell)');
  }, CLI_TIMEOUT);

  it('cells prints the first stage alone (revision 1) and the forecaster as it issues now, writing nothing', async () => {
    const { code, stdout } = await runCli('forecast', ['cells', '--market', 'BTC', '--tf', '1h'], data);
    expect(code).toBe(0);
    const [first, now] = stdout.split('as issued (revision 2, recalibrated):');
    expect(first).toContain('first stage alone (revision 1):');
    for (const t of firstStage.calibration.touch) expect(first).toContain(printed(t));
    for (const t of walk.calibration.touch) expect(now).toContain(printed(t));
    expect(stdout).toContain(`${walk.issues.length} envelopes issued walk-forward, ${walk.scores.length} scored`);
    const again = await runCli('forecast', ['backfill', '--market', 'BTC', '--tf', '1h'], data);
    expect(again.stdout).toContain(`0 new, ${walk.issues.length} already there`);
  }, CLI_TIMEOUT);

  it('keeps the ledger byte for byte when the future is removed: an archive cut at T issues the same envelopes to T', async () => {
    const cut = await mkdtemp(join(tmpdir(), 'deck-cells-cut-'));
    // The shipped hours that had closed by T, and nothing after: what a deck at T held.
    const held = tuplesFromBars(bars).filter((r) => r[0] + H <= T);
    expect((await runCli('tape', ['import', await writeCsv(cut, 'to-t.csv', held), '--market', 'BTC', '--tf', '1h'], cut)).code).toBe(0);
    expect((await runCli('forecast', ['backfill', '--market', 'BTC', '--tf', '1h'], cut)).code).toBe(0);
    const issued = async (dir: string) => {
      const ledger = await FileLedger.open<{ envelopes: Envelope[] }>(dir, 'forecast-BTC-1h');
      expect(ledger.verify()).toBeNull();
      return ledger.all.flatMap((e) => e.entry.envelopes).map((e) => JSON.stringify(e));
    };
    const whole = await issued(data);
    const toT = await issued(cut);
    expect(toT.length).toBeGreaterThan(300);
    expect(toT.every((e) => JSON.parse(e).model_rev === '2')).toBe(true);
    expect(toT).toEqual(whole.slice(0, toT.length));
    expect(JSON.parse(toT.at(-1)!).issued_t).toBe(T);
  }, CLI_TIMEOUT);

  it('refuses a verb it does not know, naming both', async () => {
    const { code, stderr } = await runCli('forecast', ['cell', '--market', 'BTC', '--tf', '1h'], data);
    expect(code).toBe(2);
    expect(stderr).toContain('npm run forecast -- cells --market BTC --tf 5m');
  }, CLI_TIMEOUT);
});

describe('a deck on the backfilled shipped month', () => {
  beforeAll(async () => {
    deck = await testDeck({ DECK_DATA: data, DECK_GRANTS: await grantsFile([{ name: 'cells', tier: 'plan' }]) });
    me = await signedIn(deck.url, 'cells');
  });

  it('answers each cell measured on its own, and draws the envelope as its worst cell', async () => {
    const { status, body } = await forecast(`BTC/1h?t=${T}`);
    expect(status).toBe(200);
    const known = calibrate(walk.scores, { bar: H, asOf: T });
    expect(body.envelope.calibration).toEqual(known);
    const { touch, band } = body.envelope.calibration as Calibration;
    // Issued every hour: each cell rests on about n / horizon outcomes, so only the 6-bar cells reach 30.
    expect(known.n).toBeGreaterThan(250);
    expect(touch.map((t) => t.within)).toEqual([6, 12, 24, 6, 12, 24, 6, 12, 24]);
    for (const t of touch) {
      expect(t.effective).toBeLessThanOrEqual(Math.ceil(known.n / t.within) + 1);
      expect(t.label === 'unmeasured').toBe(t.effective < MIN_SCORED);
    }
    expect(touch.filter((t) => t.within === 6).every((t) => t.effective >= MIN_SCORED)).toBe(true);
    expect(band).toMatchObject({ within: 24, nominal: 0.8, label: 'unmeasured', draw: 'none' });
    // Drawn by the old rule, n >= 30 and the pooled ece under 0.05 read solid and calibrated.
    expect(pooledEce(walk.scores.filter((s) => s.scored_t <= T))).toBeLessThan(0.05);
    expect(body).toMatchObject({ draw: 'none', label: 'unmeasured' });
    expect(body.envelope.calibration.ece).toBe(Math.max(...touch.map((t) => t.ece!), band.ece!));
    // Magnitude, never direction: nothing in the answer names a side, a median or a drift.
    expect(() => assertNoDirection(body)).not.toThrow();
  });

  it('gives history the same draw and label, and the lens the same cells', async () => {
    const history = await forecast(`BTC/1h?t=${T}&history=1&from=${T - 24 * H}`);
    expect(history.body).toMatchObject({ draw: 'none', label: 'unmeasured' });
    const lens = await call(`${deck.url}/forecast/health`, { headers: me.bearer });
    expect(lens.body.model_rev).toBe('2');
    const row = lens.body.rows.find((r: { market: string; tf: string }) => r.market === 'BTC' && r.tf === '1h');
    const all = walk.calibration;
    expect(row).toMatchObject({ n: all.n, ece: all.ece, coverage: all.coverage, touch: all.touch, band: all.band, ...drawOf(all) });
  });

  it('answers the same cells over MCP', async () => {
    const client = await legacyClient(`${deck.url}/mcp`, me.bearer);
    try {
      const result = await client.callTool({ name: 'forecast', arguments: { market: 'BTC', tf: '1h', t: T } });
      const rest = await forecast(`BTC/1h?t=${T}`);
      const { served: _, ...answer } = result.structuredContent as { served: unknown };
      const { served: __, ...restAnswer } = rest.body;
      expect(answer).toEqual(restAnswer);
    } finally {
      await client.close();
    }
  });
});
