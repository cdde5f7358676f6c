import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calibrate, issueEnvelope, MODEL_REV, type Envelope } from '../engine/forecast/index.js';
import { barsFromTuples, tuplesFromBars } from '../engine/bars.js';
import { resample } from '../engine/resample.js';
import type { CandleRow } from '../core/tape-wire.js';
import { startVenue, sampleRows, type VenueFixture } from './fixtures/venue.js';
import { meterSpent } from './support/studio.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { legacyClient, refusalIn } from './support/mcp.js';
import { sampleFile, stitchedMonth } from './support/tape-file.js';

const M5 = 300;
const H = 3600;
/**
 * BTC as a month of minutes stitched from the shipped days in which every minute traded (test/support/tape-file.ts):
 * the deck reads its look-back by the calendar, and a month without a hole holds the very bars the engine reads.
 */
const month = tuplesFromBars(stitchedMonth('BTC-1m'));
/** 12:00:17 UTC on the month's 21st day: a few seconds into a 5m bar, well past its warm-up. */
const T = month[0]![0] + 20 * 86_400 + 12 * H + 17;
const BAR = Math.floor(T / M5) * M5;
/** 12:00:17 UTC on 4 September 2017, the second of the shipped ETH days that traded every minute: past its warm-up. */
const ETH_T = Date.UTC(2017, 8, 4, 12, 0, 17) / 1000;
/** 25 October 2013, 12:30 UTC: inside the shipped Bitfinex BTC hours, 593 hours after they begin (the hourly forecaster warms up on 372). */
const T_1H = Date.UTC(2013, 9, 25, 12, 30) / 1000;

const btc5m = resample(barsFromTuples(month), 60, M5).bars;
/** What the engine issues from the whole real file at a bar close: the bytes any honest issuance at it must give. */
const engineAt = (t: number): Envelope => issueEnvelope(btc5m, { market: 'BTC', tf: '5m' }, t);
/** The envelope as issued: the answer without the calibration the deck adds to it. */
const issuedOf = (answer: { envelope: Envelope & { calibration?: unknown } }): Envelope => {
  const { calibration: _, ...issued } = answer.envelope;
  return issued;
};

/** Nothing scored yet: every cell null and unmeasured. */
const NONE_SCORED = calibrate([], { bar: M5 });

/** The month's BTC 1m rows, except that every bar not closed by t is moved (prices times 1.5): the future rewritten. */
const futureRewritten = (t: number): CandleRow[] =>
  month.map((r) => (r[0] + 60 > t ? [r[0], r[1] * 1.5, r[2] * 1.5, r[3] * 1.5, r[4] * 1.5, r[5]] : r));

let venue: VenueFixture;
let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;
const forecast = (path: string, headers = me.bearer) => call(`${deck.url}/forecast/${path}`, { headers });

beforeAll(async () => {
  venue = await startVenue({ 'BTC/1m': month, 'BTC/1h': sampleRows('BTC-1h'), 'ETH/1m': sampleRows('ETH-1m'), 'ES/1m': sampleRows('ES-1m') });
  deck = await testDeck({ DECK_TAPE_URL: venue.url });
  me = await signedIn(deck.url, 'forecaster');
});
afterAll(async () => {
  await deck.stop();
  await venue.close();
});

describe('GET /forecast/{market}/{tf}', () => {
  it('needs a session, as does the lens', async () => {
    expect((await call(`${deck.url}/forecast/BTC/5m?t=${T}`)).status).toBe(401);
    expect((await call(`${deck.url}/forecast/health`)).status).toBe(401);
  });

  it.each([
    [`XAU/5m?t=${T}`, 'market'],
    [`BTC/1m?t=${T}`, 'tf'],
    [`BTC/15s?t=${T}`, 'tf'],
    ['BTC/5m?t=soon', 't'],
    [`BTC/5m?t=${T}.5`, 't'],
    ['BTC/5m?t=-300', 't'],
    ['BTC/5m?t=4102444800', 't'],
    [`BTC/5m?t=${T}&history=1`, 'from'],
    [`BTC/5m?t=${T}&from=${T - H}`, 'from'],
    [`BTC/5m?t=${T}&history=1&from=${T + 1}`, 'from'],
    [`BTC/5m?t=${T}&history=maybe&from=0`, 'history'],
    [`BTC/5m?t=${T}&session=a%20b`, 'session'],
  ])('%s is refused with 422 naming %s', async (path, field) => {
    const { status, body } = await forecast(path);
    expect(status).toBe(422);
    expect(body.problems.map((p: { field: string }) => p.field)).toContain(field);
  });

  it('issues on demand at t from the bars closed by t, at the close of the last one', async () => {
    const { status, body } = await forecast(`BTC/5m?t=${T}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, draw: 'none', label: 'unmeasured', age_bars: 0, served: { t: T, issued_now: true, recorded: true } });
    expect(body.envelope).toMatchObject({ version: 'envelope.v1', market: 'BTC', tf: '5m', issued_t: BAR, last_bar_t: BAR - M5 });
    expect(body.envelope.calibration).toEqual(NONE_SCORED);
    // The same bytes the engine issues at that bar close from the whole month (as a backfill would).
    expect(issuedOf(body)).toEqual(engineAt(BAR));
    expect(body.envelope.close).toBe(month.find((r) => r[0] === BAR - 60)![4]);
    for (const key of ['side', 'median', 'drift']) expect(JSON.stringify(body)).not.toContain(`"${key}"`);
  });

  it('has no look-ahead: a deck whose venue rewrote every bar after t issues the same envelope at t', async () => {
    const rewritten = await startVenue({ 'BTC/1m': futureRewritten(T) });
    const other = await testDeck({ DECK_TAPE_URL: rewritten.url });
    try {
      const who = await signedIn(other.url, 'replayer');
      const there = await call(`${other.url}/forecast/BTC/5m?t=${T}`, { headers: who.bearer });
      const here = await forecast(`BTC/5m?t=${T}`);
      expect(there.status).toBe(200);
      expect(issuedOf(there.body)).toEqual(issuedOf(here.body));
      // The rewrite is real: two hours on, both decks issue from their own (now different) closed bars.
      const later = await call(`${other.url}/forecast/BTC/5m?t=${T + 2 * H}`, { headers: who.bearer });
      expect(later.body.envelope.close).toBeCloseTo(engineAt(BAR + 2 * H).close * 1.5, 6);
    } finally {
      await other.stop();
      await rewritten.close();
    }
  });

  it('discloses only what was issued by t: a look back answers the earlier envelope, before it 404', async () => {
    const second = await forecast(`BTC/5m?t=${T + 2 * H}`);
    expect(second.body).toMatchObject({ served: { issued_now: true }, envelope: { issued_t: BAR + 2 * H }, age_bars: 0 });
    expect(issuedOf(second.body)).toEqual(engineAt(BAR + 2 * H));

    const between = await forecast(`BTC/5m?t=${T + H}`);
    expect(between.status).toBe(200);
    expect(issuedOf(between.body)).toEqual(engineAt(BAR));
    expect(between.body).toMatchObject({ age_bars: 12, served: { t: T + H, issued_now: false, recorded: true } });

    const before = await forecast(`BTC/5m?t=${BAR - 1}`);
    expect(before.status).toBe(404);
    expect(before.body).toMatchObject({ ok: false, error: 'no_envelope', reason: 'none_issued' });

    const again = await forecast(`BTC/5m?t=${T + 2 * H}`);
    expect(issuedOf(again.body)).toEqual(issuedOf(second.body));
    expect(again.body.served.issued_now).toBe(false);
  });

  it('scores an envelope once its 24 bars have closed, and states the calibration as of t', async () => {
    // The first envelope's 24th bar closes at BAR + 2h: by then it is scored, an hour earlier it was not.
    const at = await forecast(`BTC/5m?t=${T + 2 * H}`);
    expect(at.body.envelope.calibration.n).toBe(1);
    expect(at.body.envelope.calibration.coverage).toBeGreaterThanOrEqual(0);
    expect(at.body).toMatchObject({ draw: 'none', label: 'unmeasured' });
    const earlier = await forecast(`BTC/5m?t=${T + H}`);
    expect(earlier.body.envelope.calibration).toEqual(NONE_SCORED);
  });

  it('answers history=1 with the compact issues of [from, t]', async () => {
    const { status, body } = await forecast(`BTC/5m?t=${T + 3 * H}&history=1&from=${T - H}`);
    expect(status).toBe(200);
    const first = engineAt(BAR);
    const last = first.band.steps[23]!;
    expect(body).toMatchObject({ ok: true, truncated: false, draw: 'none', label: 'unmeasured' });
    expect(body.issues).toEqual([
      { issued_t: BAR, width_atr: 2 * last.upper_atr, lower: last.lower, upper: last.upper },
      expect.objectContaining({ issued_t: BAR + 2 * H }),
    ]);
    const narrow = await forecast(`BTC/5m?t=${T + 3 * H}&history=1&from=${BAR + 1}`);
    expect(narrow.body.issues.map((i: { issued_t: number }) => i.issued_t)).toEqual([BAR + 2 * H]);
    const scrubbed = await forecast(`BTC/5m?t=${T + H}&history=1&from=${T - H}`);
    expect(scrubbed.body.issues.map((i: { issued_t: number }) => i.issued_t)).toEqual([BAR]);
  });

  it('issues 1h envelopes too, from the venue\'s 1h bars', async () => {
    const { status, body } = await forecast(`BTC/1h?t=${T_1H}`);
    expect(status).toBe(200);
    const bar = Math.floor(T_1H / H) * H;
    expect(issuedOf(body)).toEqual(issueEnvelope(sampleFile('BTC-1h'), { market: 'BTC', tf: '1h' }, bar));
    expect(body.age_bars).toBe(0);
  });

  it('follows the CME calendar: over the weekend ES discloses Friday\'s last envelope, aged no bars', async () => {
    const sunday = Date.UTC(2013, 9, 13, 21, 30) / 1000; // half an hour before the Globex open
    // The close of the last 5m bar before the weekend halt, as the tape holds it (in 2013 Friday's close was 16:15 CDT).
    const lastMinute = sampleRows('ES-1m').filter((r) => r[0] < sunday).at(-1)![0];
    const friday = Math.floor(lastMinute / M5) * M5 + M5;
    const { status, body } = await forecast(`ES/5m?t=${sunday}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ age_bars: 0, envelope: { issued_t: friday, last_bar_t: friday - M5 } });
    expect(issuedOf(body)).toEqual(issueEnvelope(resample(sampleFile('ES-1m'), 60, M5).bars, { market: 'ES', tf: '5m' }, friday));
    const reopened = await forecast(`ES/5m?t=${sunday - 1}&history=1&from=0`);
    expect(reopened.body.issues.map((i: { issued_t: number }) => i.issued_t)).toEqual([friday]);
  });

  it('issues a bar once however many reads arrive at once', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => forecast(`ETH/5m?t=${ETH_T}`)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.body.served.issued_now)).toHaveLength(1);
    expect(new Set(answers.map((a) => JSON.stringify(a.body.envelope))).size).toBe(1);
    const history = await forecast(`ETH/5m?t=${ETH_T}&history=1&from=0`);
    expect(history.body.issues.map((i: { issued_t: number }) => i.issued_t)).toEqual([Math.floor(ETH_T / M5) * M5]);
  });

  it('answers 404 naming the reason when there is too little history before t', async () => {
    // Hourly bars built from the first day of the shipped ETH minutes: a pair no other test issues on.
    const early = Date.UTC(2017, 8, 3, 20) / 1000;
    const { status, body } = await forecast(`ETH/1h?t=${early}`);
    expect(status).toBe(404);
    expect(body).toMatchObject({ error: 'no_envelope', reason: 'warming_up' });
    expect(body.message).toMatch(/needs at least \d+ closed bars/);
  });
});

describe('GET /forecast/health', () => {
  it('answers the lens: the model and a row per market and timeframe with its calibration and newest issue', async () => {
    const { status, body } = await call(`${deck.url}/forecast/health`, { headers: me.bearer });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, model: 'excursion-quantile', model_rev: MODEL_REV, device: 'cpu', samples: 2000, horizon: 24 });
    expect(body.rows).toHaveLength(12);
    const row = (market: string, tf: string) => body.rows.find((r: { market: string; tf: string }) => r.market === market && r.tf === tf);
    const now = Math.floor(Date.now() / 1000);
    const btc = row('BTC', '5m');
    // Now, both BTC 5m envelopes have had their 24 bars close: both are scored (two is still unmeasured).
    expect(btc).toMatchObject({ n: 2, draw: 'none', label: 'unmeasured', newest_issued_t: BAR + 2 * H });
    expect(Math.abs(btc.age_bars - Math.floor((now - (BAR + 2 * H)) / M5))).toBeLessThanOrEqual(1);
    expect(row('NQ', '1h')).toEqual({ market: 'NQ', tf: '1h', ...calibrate([], { bar: H }), draw: 'none', label: 'unmeasured', newest_issued_t: null, age_bars: null });
    expect(row('BTC', '1h').newest_issued_t).toBe(Math.floor(T_1H / H) * H);
  });
});

describe('the forecast tools over MCP', () => {
  it('answer what the REST routes answer', async () => {
    const client = await legacyClient(`${deck.url}/mcp`, me.bearer);
    try {
      const result = await client.callTool({ name: 'forecast', arguments: { market: 'BTC', tf: '5m', t: T + H } });
      const rest = await forecast(`BTC/5m?t=${T + H}`);
      // Alike but for the wall time each was served at.
      const { served, ...answer } = result.structuredContent as { served: Record<string, unknown> };
      const { served: restServed, ...restAnswer } = rest.body;
      expect(answer).toEqual(restAnswer);
      expect(served).toEqual({ ...restServed, at: served.at });
      expect(answer).toMatchObject({ age_bars: 12, envelope: { issued_t: BAR } });
      const missing = await client.callTool({ name: 'forecast', arguments: { market: 'BTC', tf: '5m', t: BAR - 1 } });
      expect(missing.isError).toBe(true);
      expect(refusalIn(missing)).toMatchObject({ status: 404, error: 'no_envelope' });
      const lens = await client.callTool({ name: 'forecast_health', arguments: {} });
      expect((lens.structuredContent as { rows: unknown[] }).rows).toHaveLength(12);
    } finally {
      await client.close();
    }
  });
});

describe('a replay session', () => {
  it('issues from the venue as it answers now and records nothing', async () => {
    const t = ETH_T + 2 * H + 5; // after any envelope the ledger holds
    const bar = Math.floor(t / M5) * M5;
    venue.shift = 1000;
    try {
      const { status, body } = await forecast(`ETH/5m?t=${t}&session=replay-7`);
      expect(status).toBe(200);
      expect(body.served).toMatchObject({ issued_now: true, recorded: false });
      const real = sampleRows('ETH-1m').find((r) => r[0] === bar - 60)![4];
      expect(body.envelope.close).toBeCloseTo(real + 1000, 6);
    } finally {
      venue.shift = 0;
    }
    const history = await forecast(`ETH/5m?t=${t}&history=1&from=0`);
    expect(history.body.issues.map((i: { issued_t: number }) => i.issued_t)).not.toContain(bar);
  });
});

describe('the meter', () => {
  it('records each answered read on the meter at its price, and nothing for a refused one', async () => {
    const before = await meterSpent(deck.url, me);
    expect((await forecast(`ETH/5m?t=${ETH_T}`, me.bearer)).status).toBe(200);
    expect((await forecast(`ETH/5m?t=${ETH_T}&history=1&from=${ETH_T - 3600}`, me.bearer)).status).toBe(200);
    expect(await meterSpent(deck.url, me)).toBe(before + 2);
    expect((await forecast(`ETH/5m?t=${ETH_T - 400 * 24 * 3600}`, me.bearer)).status).toBe(404);
    expect((await forecast(`XAU/5m?t=${T}`, me.bearer)).status).toBe(422);
    expect(await meterSpent(deck.url, me)).toBe(before + 2);
  });
});
