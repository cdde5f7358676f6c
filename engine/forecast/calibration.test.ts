import { describe, expect, it } from 'vitest';
import { calibrate, drawOf, type Calibration } from './calibration.js';
import type { Score } from './score.js';

const score = (odds: number[], touched: number[], inside = 24, scored_t = 0): Score => ({
  issued_t: scored_t - 7200,
  scored_t,
  odds,
  touched: touched.reduce((mask, b) => mask | (1 << b), 0),
  inside,
});

describe('calibration by hand', () => {
  it('bins the nine odds of every envelope in ten equal bins and weighs each bin by its pairs', () => {
    const odds = [0.05, 0.05, 0.05, 0.45, 0.45, 0.45, 0.95, 0.95, 0.95];
    // Bin [0, 0.1): 6 pairs stating 0.05, 1 happened -> |0.3 - 1| = 0.7.
    // Bin [0.4, 0.5): 6 pairs stating 0.45, 3 happened -> |2.7 - 3| = 0.3.
    // Bin [0.9, 1]: 6 pairs stating 0.95, 5 happened -> |5.7 - 5| = 0.7.
    // ece = (0.7 + 0.3 + 0.7) / 18 = 0.09444…
    const c = calibrate([score(odds, [0, 3, 4, 6, 7, 8], 24), score(odds, [3, 6, 7], 12)]);
    expect(c).toEqual({ n: 2, ece: 0.0944, coverage: 0.75 });
  });

  it('puts 0.3 in [0.3, 0.4) and 1 in the last bin', () => {
    // 0.3 touched alone in its bin: 0.7; seven 0.25 untouched: 1.75; 1 touched: 0. (0.7 + 1.75) / 9 = 0.2722.
    // Were 0.3 binned with the 0.25s, the bin would read |2.05 - 1| / 9 = 0.1167.
    const c = calibrate([score([0.3, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 1], [0, 8])]);
    expect(c.ece).toBe(0.2722);
  });

  it('reads null with no scored envelope, and counts only what was scored by asOf', () => {
    expect(calibrate([])).toEqual({ n: 0, ece: null, coverage: null });
    const perfect = Array(9).fill(1);
    const all = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    const scores = [score(perfect, all, 24, 100), score(Array(9).fill(0), all, 0, 200)];
    expect(calibrate(scores, 150)).toEqual({ n: 1, ece: 0, coverage: 1 });
    expect(calibrate(scores, 99)).toEqual({ n: 0, ece: null, coverage: null });
    expect(calibrate(scores)).toEqual({ n: 2, ece: 0.5, coverage: 0.5 });
  });
});

describe('draw and label', () => {
  const at = (n: number, ece: number | null): Calibration => ({ n, ece, coverage: null });

  it('draws solid under 0.05, dashed under 0.10, and nothing from 0.10 up', () => {
    expect(drawOf(at(30, 0))).toEqual({ draw: 'solid', label: 'calibrated' });
    expect(drawOf(at(30, 0.0499))).toEqual({ draw: 'solid', label: 'calibrated' });
    expect(drawOf(at(30, 0.05))).toEqual({ draw: 'dashed', label: 'loosely calibrated' });
    expect(drawOf(at(30, 0.0999))).toEqual({ draw: 'dashed', label: 'loosely calibrated' });
    expect(drawOf(at(30, 0.1))).toEqual({ draw: 'none', label: 'not calibrated' });
    expect(drawOf(at(5000, 0.4))).toEqual({ draw: 'none', label: 'not calibrated' });
  });

  it('reads unmeasured under 30 scored envelopes, however good they look', () => {
    expect(drawOf(at(29, 0))).toEqual({ draw: 'none', label: 'unmeasured' });
    expect(drawOf(at(0, null))).toEqual({ draw: 'none', label: 'unmeasured' });
    const all = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    const perfect = (k: number) => Array.from({ length: k }, () => score(Array(9).fill(1), all));
    expect(drawOf(calibrate(perfect(29)))).toEqual({ draw: 'none', label: 'unmeasured' });
    expect(drawOf(calibrate(perfect(30)))).toEqual({ draw: 'solid', label: 'calibrated' });
  });
});
