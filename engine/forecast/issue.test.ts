import { describe, expect, it } from 'vitest';
import { sampleFile } from '../../test/support/tape-file.js';
import { allocBars, type Bars } from '../bars.js';
import { resample } from '../resample.js';
import { compactOf, TOUCH_WITHIN, type Pair } from './envelope.js';
import { issueEnvelope } from './issue.js';
import { ForecastError, lastClosedBar, lookbackBars } from './issuer.js';
import { scoreEnvelope } from './score.js';
import { issueAll } from './walk.js';

// The shipped BTC minutes in 5m bars (2,506 of them): nine days, one after another as the forecaster reads its bars.
const bars = resample(sampleFile('BTC-1m'), 60, 300).bars;
const pair: Pair = { market: 'BTC', tf: '5m' };
const closeOf = (i: number): number => bars.t[i]! + 300;

/** A copy of bars whose every bar after index i is moved somewhere else entirely. */
function changedAfter(src: Bars, i: number): Bars {
  const b = allocBars(src.length);
  for (const f of ['t', 'o', 'h', 'l', 'c', 'v'] as const) b[f].set(src[f]);
  for (let j = i + 1; j < src.length; j++) {
    const s = 1.37 + (j % 7) * 0.01;
    b.o[j] = src.o[j]! * s;
    b.c[j] = src.c[j]! * s * 1.01;
    b.h[j] = Math.max(b.o[j]!, b.c[j]!) * 1.02;
    b.l[j] = Math.min(b.o[j]!, b.c[j]!) * 0.97;
    b.v[j] = src.v[j]! * 3;
  }
  return b;
}

const views = (src: Bars, from: number, to: number): Bars => ({
  length: to - from,
  t: src.t.subarray(from, to),
  o: src.o.subarray(from, to),
  h: src.h.subarray(from, to),
  l: src.l.subarray(from, to),
  c: src.c.subarray(from, to),
  v: src.v.subarray(from, to),
});

const failure = (run: () => unknown): ForecastError => {
  try {
    run();
  } catch (error) {
    if (error instanceof ForecastError) return error;
    throw error;
  }
  throw new Error('issued');
};

describe('issuing an envelope at t', () => {
  const i = 2400;
  const t = closeOf(i) + 100; // inside bar i + 1, which has not closed

  it('reads nothing after the last bar closed by t: every later bar changed gives the same bytes', () => {
    const before = JSON.stringify(issueEnvelope(bars, pair, t));
    expect(JSON.stringify(issueEnvelope(changedAfter(bars, i), pair, t))).toBe(before);
    expect(JSON.stringify(issueEnvelope(views(bars, 0, i + 1), pair, t))).toBe(before);
    // The change is one the forecaster would see: an envelope issued after it moves.
    const later = closeOf(i + 30);
    expect(JSON.stringify(issueEnvelope(changedAfter(bars, i), pair, later))).not.toBe(JSON.stringify(issueEnvelope(bars, pair, later)));
  });

  it('gives the same bytes for the same bars, and from any history that holds the look-back', () => {
    const once = JSON.stringify(issueEnvelope(bars, pair, t));
    expect(JSON.stringify(issueEnvelope(bars, pair, t))).toBe(once);
    expect(JSON.stringify(issueEnvelope(views(bars, i + 1 - lookbackBars(), bars.length), pair, t))).toBe(once);
  });

  it('states a symmetric band, nine odds that grow with the horizon and shrink with the size, and no direction', () => {
    const e = issueEnvelope(bars, pair, t);
    expect(e).toMatchObject({ version: 'envelope.v1', market: 'BTC', tf: '5m', issued_t: t, last_bar_t: bars.t[i], close: bars.c[i] });
    expect(e.samples).toBe(2000);
    expect(e.band.nominal).toBe(0.8);
    for (const s of e.band.steps) {
      expect(s.upper_atr).toBeGreaterThan(0);
      expect(s.upper_atr).toBe(-s.lower_atr);
      // Equal but for rounding each end to ten digits of the close.
      expect(Math.abs(s.upper - e.close - (e.close - s.lower))).toBeLessThan(1e-8 * e.close);
      expect(Math.abs(s.upper - e.close - s.upper_atr * e.atr)).toBeLessThan(1e-8 * e.close);
    }
    // The band at 24 bars is wider than at 1 bar: spread grows with the horizon.
    expect(e.band.steps[23]!.upper_atr).toBeGreaterThan(2 * e.band.steps[0]!.upper_atr);
    const odds = (size: number, within: number) => e.touch.find((x) => x.atr === size && x.within === within)!.odds;
    for (const size of [0.5, 1, 2]) expect(odds(size, 6) <= odds(size, 12) && odds(size, 12) <= odds(size, 24)).toBe(true);
    for (const within of TOUCH_WITHIN) expect(odds(0.5, within) >= odds(1, within) && odds(1, within) >= odds(2, within)).toBe(true);
    expect(Object.keys(e)).not.toContain('median');
  });

  it('takes t as the close: a bar closing exactly at t is read, one closing a second later is not', () => {
    expect(lastClosedBar(bars, 300, closeOf(i))).toBe(i);
    expect(lastClosedBar(bars, 300, closeOf(i) - 1)).toBe(i - 1);
    expect(lastClosedBar(bars, 300, bars.t[0]!)).toBe(-1);
    expect(issueEnvelope(bars, pair, closeOf(i)).last_bar_t).toBe(bars.t[i]);
  });

  it('refuses to issue without enough history, or over bars with no range', () => {
    expect(failure(() => issueEnvelope(bars, pair, bars.t[0]! - 1)).reason).toBe('warming_up');
    // 200 past bars in the sample are the least: the first issue is at index 200 + 24 + 149 - 1 = 372.
    expect(failure(() => issueEnvelope(bars, pair, closeOf(371))).reason).toBe('warming_up');
    expect(issueEnvelope(bars, pair, closeOf(372)).samples).toBe(200);
    const flat = allocBars(i + 200);
    for (const f of ['t', 'o', 'h', 'l', 'c', 'v'] as const) flat[f].set(bars[f].subarray(0, i));
    for (let j = i; j < flat.length; j++) {
      flat.t[j] = flat.t[j - 1]! + 300;
      flat.o[j] = flat.h[j] = flat.l[j] = flat.c[j] = 90_000;
    }
    expect(failure(() => issueEnvelope(flat, pair, flat.t[flat.length - 1]! + 300)).reason).toBe('flat');
  });
});

describe('walk-forward issuance', () => {
  const from = closeOf(1800);
  const to = closeOf(2400);
  const envelopes: string[] = [];
  const walk = issueAll(bars, pair, from, to, undefined, (e) => envelopes.push(JSON.stringify(e)));

  it('issues at every bar closing in [from, to), each exactly as issuing at that moment would', () => {
    expect(walk.issues.length).toBe(600);
    expect(walk.unissued).toBe(0);
    expect(walk.issues[0]!.issued_t).toBe(from);
    expect(walk.issues.at(-1)!.issued_t).toBe(closeOf(2399));
    for (let k = 0; k < 600; k += 37) {
      const e = issueEnvelope(bars, pair, walk.issues[k]!.issued_t);
      expect(envelopes[k]).toBe(JSON.stringify(e));
      expect(walk.issues[k]).toEqual(compactOf(e));
      expect(walk.scores[k]).toEqual(scoreEnvelope(e, bars));
    }
  });

  it('scores only envelopes whose 24 bars have followed, and counts what could not be issued', () => {
    const end = issueAll(bars, pair, closeOf(bars.length - 40), closeOf(bars.length - 1) + 1);
    expect(end.issues.length).toBe(40);
    expect(end.scores.length).toBe(40 - 24);
    expect(end.calibration.n).toBe(16);
    const start = issueAll(bars, pair, closeOf(0), closeOf(400));
    expect(start.unissued).toBe(372);
    expect(start.issues.length).toBe(400 - 372);
  });
});
