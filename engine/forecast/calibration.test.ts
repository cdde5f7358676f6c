import { describe, expect, it } from 'vitest';
import { pooledEce } from '../../test/support/forecast-scores.js';
import { sampleFile } from '../../test/support/tape-file.js';
import { calibrate, drawCell, drawOf, type Calibration } from './calibration.js';
import type { Envelope } from './envelope.js';
import { DEFAULT_OPTIONS } from './issuer.js';
import { scoreEnvelope, type Score } from './score.js';
import { issueAll } from './walk.js';

const H = 3600;

const score = (odds: number[], touched: number[], inside = 24, scored_t = 0, issued_t = scored_t - 25 * H): Score => ({
  issued_t,
  scored_t,
  odds,
  touched: touched.reduce((mask, b) => mask | (1 << b), 0),
  inside,
});

/** Envelopes issued every `every` hours, all stating `odds` and seeing `touched` happen, each band holding 19 of 24 closes. */
const series = (count: number, every: number, odds: number[], touched: number[], inside = 19): Score[] =>
  Array.from({ length: count }, (_, i) => score(odds, touched, inside, (i + 25) * every * H, i * every * H));

/** The real shipped Bitfinex BTC 1h month walked forward: 337 scored envelopes, one an hour. */
const real = issueAll(sampleFile('BTC-1h'), { market: 'BTC', tf: '1h' }, 0, Number.MAX_SAFE_INTEGER);

describe('calibration cell by cell, by hand', () => {
  it('bins each touch cell in its own ten bins, so one cell stating too much and another too little do not cancel', () => {
    // Cell 0 states 0.45 and it always happens; cell 1 states 0.55 and it never does; the rest state what happens.
    const odds = [0.45, 0.55, 1, 1, 1, 1, 0, 0, 0];
    const scores = series(40, 24, odds, [0, 2, 3, 4, 5]);
    // Pooled, the two land in bins [0.4, 0.5) and [0.5, 0.6) and each reads its own gap; pooled further (the nine
    // cells weighed by one another) the figure is small; cell by cell each reads its whole gap.
    const c = calibrate(scores, { bar: H });
    expect(c.touch[0]).toMatchObject({ atr: 0.5, within: 6, n: 40, effective: 40, ece: 0.55, stated: 0.45, happened: 1, draw: 'none', label: 'not calibrated' });
    expect(c.touch[1]).toMatchObject({ atr: 0.5, within: 12, ece: 0.55, stated: 0.55, happened: 0, label: 'not calibrated' });
    expect(c.touch[2]).toMatchObject({ ece: 0, label: 'calibrated', draw: 'solid' });
    expect(c.ece).toBe(0.55);
    expect(pooledEce(scores)).toBeCloseTo(1.1 / 9, 10);
  });

  it('holds the band to its nominal: its ece is |coverage − nominal|, labelled on its own', () => {
    const good = series(40, 24, Array(9).fill(0), [], 19);
    // 19 of 24 closes inside: 0.7917 against 0.8.
    expect(calibrate(good, { bar: H }).band).toMatchObject({ within: 24, n: 40, effective: 40, nominal: 0.8, coverage: 0.7917, ece: 0.0083, draw: 'solid', label: 'calibrated' });
    const narrow = series(40, 24, Array(9).fill(0), [], 14);
    const c = calibrate(narrow, { bar: H });
    // Every touch cell is perfect; the band held 0.5833 of closes against 0.8 and is not drawn, nor is the pair.
    expect(c.touch.every((t) => t.label === 'calibrated')).toBe(true);
    expect(c.band).toMatchObject({ coverage: 0.5833, ece: 0.2167, label: 'not calibrated', draw: 'none' });
    expect(drawOf(c)).toEqual({ draw: 'none', label: 'not calibrated' });
    expect(c).toMatchObject({ ece: 0.2167, coverage: 0.5833 });
    // Against another nominal (a sidecar's 0.6 band), the same closes are calibrated.
    expect(calibrate(narrow, { bar: H, nominal: () => 0.6 }).band).toMatchObject({ nominal: 0.6, ece: 0.0167, label: 'calibrated' });
  });

  it('counts overlapping outcomes honestly: issued every bar, a cell rests on about n / horizon of them', () => {
    const hourly = calibrate(series(240, 1, Array(9).fill(1), [0, 1, 2, 3, 4, 5, 6, 7, 8]), { bar: H });
    expect(hourly.touch.map((t) => t.effective)).toEqual([40, 20, 10, 40, 20, 10, 40, 20, 10]);
    expect(hourly.band.effective).toBe(10);
    // Every other bar: twice as many; a day apart: each whole.
    expect(calibrate(series(240, 2, Array(9).fill(1), []), { bar: H }).touch.map((t) => t.effective).slice(0, 3)).toEqual([80, 40, 20]);
    expect(calibrate(series(240, 24, Array(9).fill(1), []), { bar: H }).touch.map((t) => t.effective).slice(0, 3)).toEqual([240, 240, 240]);
    // The same hourly scores read as 5m bars are twelve bars apart: 6-bar cells count whole, 24-bar ones half.
    expect(calibrate(series(240, 1, Array(9).fill(1), []), { bar: 300 }).touch.map((t) => t.effective).slice(0, 3)).toEqual([240, 240, 120]);
  });

  it('reads unmeasured below 30 effective outcomes, however many envelopes and however good they look', () => {
    // 100 hourly envelopes, every odds perfect: the old rule read calibrated on n = 100; the 12- and 24-bar cells and
    // the band rest on 9 and 5 outcomes, and the pair reads unmeasured.
    const c = calibrate(series(100, 1, Array(9).fill(1), [0, 1, 2, 3, 4, 5, 6, 7, 8]), { bar: H });
    expect(c.n).toBe(100);
    expect(c.ece).toBe(0.0083);
    expect(c.touch.map((t) => t.label)).toEqual(['unmeasured', 'unmeasured', 'unmeasured', 'unmeasured', 'unmeasured', 'unmeasured', 'unmeasured', 'unmeasured', 'unmeasured']);
    expect(c.touch.map((t) => t.effective)).toEqual([17, 9, 5, 17, 9, 5, 17, 9, 5]);
    expect(drawOf(c)).toEqual({ draw: 'none', label: 'unmeasured' });
    const daily = calibrate(series(30, 24, Array(9).fill(1), [0, 1, 2, 3, 4, 5, 6, 7, 8]), { bar: H });
    expect(drawOf(daily)).toEqual({ draw: 'solid', label: 'calibrated' });
    expect(drawOf(calibrate(series(29, 24, Array(9).fill(1), [0, 1, 2, 3, 4, 5, 6, 7, 8]), { bar: H }))).toEqual({ draw: 'none', label: 'unmeasured' });
  });

  it('reads null with no scored envelope, and counts only what was scored by asOf', () => {
    const none = calibrate([], { bar: H });
    expect(none).toMatchObject({ n: 0, ece: null, coverage: null, band: { n: 0, effective: 0, coverage: null, ece: null, label: 'unmeasured' } });
    expect(none.touch.every((t) => t.n === 0 && t.effective === 0 && t.ece === null && t.stated === null && t.label === 'unmeasured')).toBe(true);
    const all = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    const scores = [score(Array(9).fill(1), all, 24, 100), score(Array(9).fill(0), all, 0, 200)];
    expect(calibrate(scores, { bar: H, asOf: 150 })).toMatchObject({ n: 1, ece: 0.2, coverage: 1 });
    expect(calibrate(scores, { bar: H, asOf: 99 }).n).toBe(0);
    expect(calibrate(scores, { bar: H })).toMatchObject({ n: 2, ece: 0.5, coverage: 0.5 });
  });
});

describe('draw and label', () => {
  it('draws a cell solid under 0.05, dashed under 0.10, and nothing from 0.10 up or under 30 effective outcomes', () => {
    expect(drawCell(30, 0)).toEqual({ draw: 'solid', label: 'calibrated' });
    expect(drawCell(30, 0.0499)).toEqual({ draw: 'solid', label: 'calibrated' });
    expect(drawCell(30, 0.05)).toEqual({ draw: 'dashed', label: 'loosely calibrated' });
    expect(drawCell(30, 0.0999)).toEqual({ draw: 'dashed', label: 'loosely calibrated' });
    expect(drawCell(30, 0.1)).toEqual({ draw: 'none', label: 'not calibrated' });
    expect(drawCell(5000, 0.4)).toEqual({ draw: 'none', label: 'not calibrated' });
    expect(drawCell(29, 0)).toEqual({ draw: 'none', label: 'unmeasured' });
    expect(drawCell(0, null)).toEqual({ draw: 'none', label: 'unmeasured' });
  });

  it('draws the pair as its worst cell: not calibrated, then unmeasured, then loosely, then calibrated', () => {
    const base = calibrate(series(30, 24, Array(9).fill(1), [0, 1, 2, 3, 4, 5, 6, 7, 8]), { bar: H });
    const withCell = (j: number, e: number, effective = 30): Calibration => ({
      ...base,
      touch: base.touch.map((t, i) => (i === j ? { ...t, ece: e, effective, ...drawCell(effective, e) } : t)),
    });
    expect(drawOf(base)).toEqual({ draw: 'solid', label: 'calibrated' });
    expect(drawOf(withCell(4, 0.07))).toEqual({ draw: 'dashed', label: 'loosely calibrated' });
    expect(drawOf(withCell(8, 0, 29))).toEqual({ draw: 'none', label: 'unmeasured' });
    expect(drawOf({ ...withCell(8, 0, 29), band: { ...base.band, ece: 0.2, ...drawCell(30, 0.2) } })).toEqual({ draw: 'none', label: 'not calibrated' });
  });
});

describe('on the real shipped BTC 1h month', () => {
  it('labels each cell on the outcomes it rests on: one an hour, the 12- and 24-bar cells and the band are unmeasured', () => {
    const c = real.calibration;
    expect(c.n).toBe(real.scores.length);
    expect(c.n).toBeGreaterThan(300);
    // The old rule read this pair as measured (n >= 30) and drew it by its pooled ece.
    expect(pooledEce(real.scores)).toBeLessThan(0.05);
    // One an hour, with a few hours missing from the file: about n / 6, n / 12 and n / 24.
    expect(c.touch.map((t) => t.effective)).toEqual([57, 29, 15, 57, 29, 15, 57, 29, 15]);
    expect(c.touch.filter((t) => t.within === 6).every((t) => t.effective >= 30 && t.label !== 'unmeasured')).toBe(true);
    expect(c.touch.filter((t) => t.within > 6).every((t) => t.effective < 30 && t.label === 'unmeasured')).toBe(true);
    expect(c.band).toMatchObject({ label: 'unmeasured', draw: 'none' });
    expect(drawOf(c)).toEqual({ draw: 'none', label: 'unmeasured' });
  });

  it('a cell whose odds are off is not calibrated, and neither is the pair, though the pooled ece reads solid', () => {
    // The real outcomes, with the 2 ATR within 6 bars cell (index 6) stating 0.15 more than the forecaster did:
    // pooled over the nine cells the old figure stays under 0.05, the cell alone is over 0.10.
    const off = real.scores.map((s) => ({ ...s, odds: s.odds.map((p, j) => (j === 6 ? Math.min(1, p + 0.15) : p)) }));
    expect(pooledEce(off)).toBeLessThan(0.05);
    const c = calibrate(off, { bar: H });
    expect(c.touch[6]!.effective).toBeGreaterThanOrEqual(30);
    expect(c.touch[6]!.ece).toBeGreaterThan(0.1);
    expect(c.touch[6]).toMatchObject({ atr: 2, within: 6, draw: 'none', label: 'not calibrated' });
    expect(c.ece).toBe(c.touch[6]!.ece);
    expect(drawOf(c)).toEqual({ draw: 'none', label: 'not calibrated' });
  });

  it('a band that held too few closes is not calibrated on its own, whatever its touch odds read', () => {
    // The same real envelopes with each step's band drawn at two thirds of its width, scored against the real bars.
    const bars = sampleFile('BTC-1h');
    const envelopes: Envelope[] = [];
    issueAll(bars, { market: 'BTC', tf: '1h' }, 0, Number.MAX_SAFE_INTEGER, DEFAULT_OPTIONS, (e) => envelopes.push(e));
    const narrowed = envelopes
      .map((e) => {
        const steps = e.band.steps.map((s) => ({ ...s, lower: e.close - ((e.close - s.lower) * 2) / 3, upper: e.close + ((s.upper - e.close) * 2) / 3 }));
        return scoreEnvelope({ ...e, band: { ...e.band, steps } }, bars);
      })
      .filter((s): s is Score => s !== null);
    expect(narrowed).toHaveLength(real.scores.length);
    const c = calibrate(narrowed, { bar: H });
    expect(c.band.coverage).toBeLessThan(0.7);
    expect(c.touch).toEqual(real.calibration.touch);
    expect(c.band.ece).toBeGreaterThan(0.1);
    // The band is what is drawn: with 15 effective outcomes it would read unmeasured; measured it reads not calibrated.
    expect(c.band.label).toBe('unmeasured');
    expect(drawCell(30, c.band.ece)).toEqual({ draw: 'none', label: 'not calibrated' });
  });
});
