import { describe, expect, it } from 'vitest';
import { HORIZON } from './envelope.js';
import { COLUMNS, TrailingSample } from './sample.js';

/** A seeded generator (Park–Miller), so the test is the same every run. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 48_271) % 2_147_483_647) / 2_147_483_647;
}

/** The type-7 quantile of values, sorted from scratch. */
function quantile(values: number[], q: number): number {
  const a = [...values].sort((x, y) => x - y);
  const h = (a.length - 1) * q;
  const lo = Math.floor(h);
  return a[lo]! + (h - lo) * (a[Math.min(lo + 1, a.length - 1)]! - a[lo]!);
}

/** The least-squares slope of ys on xs, from scratch. */
function slope(xs: number[], ys: number[]): number {
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let xy = 0;
  let xx = 0;
  xs.forEach((x, i) => {
    xy += (x - mx) * (ys[i]! - my);
    xx += (x - mx) ** 2;
  });
  return xy / xx;
}

interface Kept {
  values: number[];
  mask: number;
  atr: number;
}

describe('the trailing sample', () => {
  const random = seeded(7);
  const capacity = 40;
  /** Values on a coarse grid, so ties (the hard case for finding the one that leaves) are common. */
  const arrival = (): Kept => ({
    values: Array.from({ length: COLUMNS }, (_, k) => Math.round(random() * (k + 2) * 8) / 8),
    mask: Math.floor(random() * 512),
    atr: 0.001 + random() * 0.01,
  });

  it('keeps the last `capacity` arrivals: quantiles, odds and shares beyond a level match a from-scratch count', () => {
    const sample = new TrailingSample(capacity);
    const kept: Kept[] = [];
    for (let n = 0; n < 400; n++) {
      const a = arrival();
      sample.push(Float64Array.from(a.values), a.mask, a.atr);
      kept.push(a);
      if (kept.length > capacity) kept.shift();
      expect(sample.size).toBe(kept.length);
      for (const k of [1, 7, 24]) {
        for (const q of [0, 0.5, 0.8, 1]) expect(sample.quantile(k, q)).toBe(quantile(kept.map((x) => x.values[k - 1]!), q));
      }
      for (let b = 0; b < 9; b++) {
        const happened = kept.filter((x) => x.mask & (1 << b)).length;
        expect(sample.odds(b)).toBe((happened + 0.5) / (kept.length + 1));
      }
      for (let w = 0; w < 3; w++) {
        for (const x of [0.5, 1, 2.25, 7]) {
          const reached = kept.filter((k) => k.values[HORIZON + w]! >= x).length;
          expect(sample.beyond(w, x)).toBe((reached + 0.5) / (kept.length + 1));
        }
      }
    }
  });

  it('keeps the regime: the mean ln ATR and the slope of ln reach on ln ATR, to the 1/4096 its logarithms keep', () => {
    const sample = new TrailingSample(capacity);
    const kept: Kept[] = [];
    for (let n = 0; n < 300; n++) {
      const a = arrival();
      sample.push(Float64Array.from(a.values), a.mask, a.atr);
      kept.push(a);
      if (kept.length > capacity) kept.shift();
      if (kept.length < 3) continue;
      const { level, slopes } = sample.regime();
      const lnAtr = kept.map((k) => Math.log(k.atr));
      expect(Math.abs(level - lnAtr.reduce((x, y) => x + y, 0) / kept.length)).toBeLessThan(1 / 4096);
      for (let w = 0; w < 3; w++) {
        const lnReach = kept.map((k) => Math.log(Math.max(0.01, k.values[HORIZON + w]!)));
        expect(Math.abs(slopes[w]! - slope(lnAtr, lnReach))).toBeLessThan(0.01);
      }
    }
  });

  it('moved on bar by bar, holds the same bits as filled afresh with the same bars', () => {
    const stream = Array.from({ length: 500 }, arrival);
    const walked = new TrailingSample(capacity);
    for (const a of stream) walked.push(Float64Array.from(a.values), a.mask, a.atr);
    const fresh = new TrailingSample(capacity);
    for (const a of stream.slice(-capacity)) fresh.push(Float64Array.from(a.values), a.mask, a.atr);
    const a = walked.regime();
    const level = a.level;
    const slopes = [...a.slopes];
    const b = fresh.regime();
    expect(b.level).toBe(level);
    expect([...b.slopes]).toEqual(slopes);
    for (let k = 1; k <= HORIZON; k++) expect(fresh.quantile(k, 0.8)).toBe(walked.quantile(k, 0.8));
    for (let w = 0; w < 3; w++) expect(fresh.beyond(w, 1)).toBe(walked.beyond(w, 1));
  });
});
