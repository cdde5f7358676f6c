import { describe, expect, it, vi } from 'vitest';
import { crossCheck } from '../../test/support/cross-check.js';
import { Prng } from '../stepper/prng.js';
import { choose, pboOf } from './cscv.js';
import { deflatedSharpe, expectedMaxSharpe, momentsOf, probabilisticSharpe, sharpeOf } from './deflated-sharpe.js';
import { monteCarloOf } from './monte-carlo.js';
import { normalCdf, normalQuantile } from './normal.js';
import { spaOf } from './spa.js';

// The independent computation is a Python process: on a loaded machine it may take a while to start.
vi.setConfig({ testTimeout: 120_000 });

// Each method of the verdict against a published example or an independent computation: Python's standard library
// (test/fixtures/verdict/cross_check.py), written from the papers rather than from this code.

/** Seeded draws of a roughly normal return: the sum of four uniforms, centred, times `scale`, plus `drift`. */
function returns(rng: Prng, n: number, drift = 0, scale = 1): number[] {
  return Array.from({ length: n }, () => drift + scale * ((rng.next() + rng.next() + rng.next() + rng.next()) / 4294967296 - 2));
}

describe('the normal distribution', () => {
  it('agrees with Python\'s statistics.NormalDist (erfc; AS241 for the inverse)', () => {
    // NormalDist().cdf and .inv_cdf at these points, printed by Python 3.
    const cdf: [number, number][] = [[-3, 0.0013498980316301035], [-1.5, 0.06680720126885809], [0, 0.5], [0.3, 0.6179114221889526], [1, 0.8413447460685429], [2.5, 0.9937903346742238]];
    for (const [x, p] of cdf) expect(normalCdf(x)).toBeCloseTo(p, 14);
    const inv: [number, number][] = [[0.001, -3.090232306167813], [0.02, -2.0537489106318225], [0.3, -0.5244005127080407], [0.9, 1.2815515655446008], [0.99, 2.3263478740408408], [1 - 1 / (100 * Math.E), 2.680210444966887]];
    for (const [p, x] of inv) expect(normalQuantile(p)).toBeCloseTo(x, 9);
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
  });
});

describe('the deflated Sharpe ratio (Bailey and López de Prado 2014)', () => {
  it('gives the paper\'s worked example to its printed precision: SR0 0.1132, DSR 0.9004', () => {
    // N = 100 trials, V[SR] = 1/2 annualised, T = 1,250 daily returns, annualised SR 2.5, skewness -3, kurtosis 10.
    const { expected_max, dsr } = deflatedSharpe({ sr: 2.5 / Math.sqrt(250), t: 1250, skewness: -3, kurtosis: 10, trials: 100, variance: 0.5 / 250 });
    expect(expected_max.toFixed(4)).toBe('0.1132');
    expect(dsr.toFixed(4)).toBe('0.9004');
  });

  it('agrees with the independent computation on other inputs, and with one trial deflates against 0', () => {
    const asked = [
      { sr: 0.08, t: 300, skewness: 0.4, kurtosis: 4.2, trials: 14, variance: 0.004 },
      { sr: -0.02, t: 60, skewness: -1.1, kurtosis: 6, trials: 3, variance: 0.02 },
      { sr: 0.3, t: 40, skewness: 1.5, kurtosis: 5, trials: 250, variance: 0.01 },
    ];
    const py = crossCheck<{ expected_max: number; dsr: number }[]>({ dsr: asked });
    asked.forEach((q, i) => {
      const ours = deflatedSharpe(q);
      expect(ours.expected_max).toBeCloseTo(py[i]!.expected_max, 10);
      expect(ours.dsr).toBeCloseTo(py[i]!.dsr, 10);
    });
    expect(expectedMaxSharpe(1, 0.5)).toBe(0);
    expect(deflatedSharpe({ sr: 0.1, t: 100, skewness: 0, kurtosis: 3, trials: 1, variance: 0 }).dsr).toBe(probabilisticSharpe(0.1, 0, 100, 0, 3));
  });

  it('reads the moments of returns as the independent computation does (population moments, kurtosis not excess)', () => {
    const x = returns(new Prng('moments'), 97, 0.1, 1.3).map((v, i) => (i % 11 === 0 ? v * 4 : v));
    const m = momentsOf(Float64Array.from(x));
    const py = crossCheck<{ mean: number; sd: number; skewness: number; kurtosis: number }>({ moments: x });
    expect(m.mean).toBeCloseTo(py.mean, 12);
    expect(m.sd).toBeCloseTo(py.sd, 12);
    expect(m.skewness).toBeCloseTo(py.skewness, 10);
    expect(m.kurtosis).toBeCloseTo(py.kurtosis, 10);
    expect(sharpeOf(m)).toBeCloseTo(py.mean / py.sd, 12);
    expect(sharpeOf(momentsOf(Float64Array.of(1)))).toBeNaN();
  });
});

describe('the probability of backtest overfitting by CSCV (Bailey, Borwein, López de Prado and Zhu)', () => {
  /** Strategies x periods, flattened strategy by strategy, and the same as rows for Python. */
  const matrix = (rows: number[][]) => Float64Array.from(rows.flat());

  it('agrees with the independent computation over every split', () => {
    const rng = new Prng('cscv');
    const rows = Array.from({ length: 7 }, (_, n) => returns(rng, 48, n === 3 ? 0.15 : 0, 1));
    for (const splits of [4, 8]) {
      const ours = pboOf(matrix(rows), rows.length, 48, splits);
      const py = crossCheck<{ pbo: number; combinations: number; oos_loss: number; median_logit: number }>({ pbo: { returns: rows, splits } });
      expect(ours.combinations).toBe(choose(splits, splits / 2));
      expect(ours.combinations).toBe(py.combinations);
      expect(ours.pbo).toBeCloseTo(py.pbo, 12);
      expect(ours.oos_loss).toBeCloseTo(py.oos_loss, 12);
      expect(ours.median_logit).toBeCloseTo(py.median_logit, 12);
    }
  });

  it('is near one half for strategies that are all noise, and near zero when one truly leads', () => {
    const rng = new Prng('cscv-noise');
    const noise = Array.from({ length: 20 }, () => returns(rng, 160, 0, 1));
    expect(pboOf(matrix(noise), 20, 160, 16).pbo).toBeGreaterThan(0.25);
    expect(pboOf(matrix(noise), 20, 160, 16).pbo).toBeLessThan(0.8);
    const led = noise.map((r, n) => (n === 5 ? r.map((x) => x + 1.5) : r));
    expect(pboOf(matrix(led), 20, 160, 16).pbo).toBe(0);
  });
});

describe("Hansen's SPA and White's Reality Check", () => {
  it('agree with the independent computation, the same bootstrap drawn from the same generator', () => {
    const rng = new Prng('spa-data');
    const rows = Array.from({ length: 5 }, (_, k) => returns(rng, 60, k === 2 ? 0.2 : -0.05 * k, 1));
    const ours = spaOf(Float64Array.from(rows.flat()), 5, 60, 300, 4, new Prng('spa-draws'));
    const py = crossCheck<{ statistic: number; p_consistent: number; p_lower: number; p_upper: number; reality_check: { statistic: number; p: number } }>({
      spa: { d: rows, draws: 300, block: 4, seed: 'spa-draws' },
    });
    expect(ours.statistic).toBeCloseTo(py.statistic, 10);
    expect(ours.p_consistent).toBe(py.p_consistent);
    expect(ours.p_lower).toBe(py.p_lower);
    expect(ours.p_upper).toBe(py.p_upper);
    expect(ours.reality_check.statistic).toBeCloseTo(py.reality_check.statistic, 10);
    expect(ours.reality_check.p).toBe(py.reality_check.p);
    expect(ours.p_lower).toBeLessThanOrEqual(ours.p_consistent);
    expect(ours.p_consistent).toBeLessThanOrEqual(ours.p_upper);
  });

  it('finds a strategy far above the benchmark, and none among strategies below it', () => {
    const rng = new Prng('spa-strong');
    const strong = Array.from({ length: 4 }, (_, k) => returns(rng, 100, k === 0 ? 1 : 0, 1));
    expect(spaOf(Float64Array.from(strong.flat()), 4, 100, 500, 5, new Prng('a')).p_consistent).toBeLessThan(0.01);
    const weak = Array.from({ length: 4 }, () => returns(rng, 100, -0.5, 1));
    expect(spaOf(Float64Array.from(weak.flat()), 4, 100, 500, 5, new Prng('b')).p_consistent).toBeGreaterThan(0.5);
  });
});

describe('the Monte Carlo of trade order and skipped trades', () => {
  it('agrees with the independent computation, path for path', () => {
    const r = returns(new Prng('mc-trades'), 80, 0.1, 1.5);
    const ours = monteCarloOf(Float64Array.from(r), 400, 0.1, new Prng('mc'));
    const py = crossCheck<{ order: { max_drawdown_r: unknown }; skipped: { final_r: unknown; max_drawdown_r: unknown } }>({ monte_carlo: { r, paths: 400, skip: 0.1, seed: 'mc' } });
    expect(ours.order.max_drawdown_r).toEqual(py.order.max_drawdown_r);
    expect(ours.skipped.final_r).toEqual(py.skipped.final_r);
    expect(ours.skipped.max_drawdown_r).toEqual(py.skipped.max_drawdown_r);
    expect(ours.order.final_r).toBeCloseTo(r.reduce((a, b) => a + b, 0), 10);
  });
});
