import { describe, expect, it } from 'vitest';
import { HORIZON } from './envelope.js';
import { TrailingSample } from './sample.js';

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

describe('the trailing sample', () => {
  it('keeps the last `capacity` arrivals: quantiles and odds match a from-scratch count after every arrival', () => {
    const random = seeded(7);
    const capacity = 40;
    const sample = new TrailingSample(capacity);
    const kept: { d: number[]; mask: number }[] = [];
    for (let arrival = 0; arrival < 400; arrival++) {
      // Values on a coarse grid, so ties (the hard case for finding the one that leaves) are common.
      const d = Array.from({ length: HORIZON }, (_, k) => Math.round(random() * (k + 2) * 8) / 8);
      const mask = Math.floor(random() * 512);
      sample.push(Float64Array.from(d), mask);
      kept.push({ d, mask });
      if (kept.length > capacity) kept.shift();
      expect(sample.size).toBe(kept.length);
      for (const k of [1, 7, 24]) {
        for (const q of [0, 0.5, 0.8, 1]) expect(sample.quantile(k, q)).toBe(quantile(kept.map((x) => x.d[k - 1]!), q));
      }
      for (let b = 0; b < 9; b++) {
        const happened = kept.filter((x) => x.mask & (1 << b)).length;
        expect(sample.odds(b)).toBe((happened + 0.5) / (kept.length + 1));
      }
    }
  });
});
