import { describe, expect, it } from 'vitest';
import { NULL_BINS, nullBins } from './null-bins.js';

describe('nullBins', () => {
  it('counts every run once, in equal bins over a range that holds the runs and the marks, padded each side', () => {
    const totals = Float64Array.from([-3, -1, 0, 0.5, 2]);
    const bins = nullBins(totals, [4, -2])!;
    expect(bins.counts).toHaveLength(NULL_BINS);
    expect(bins.counts.reduce((a, b) => a + b, 0)).toBe(5);
    // Range -3..4 (7 R), padded 5 % each side.
    expect(bins.from).toBeCloseTo(-3.35, 12);
    expect(bins.width).toBeCloseTo(7.7 / NULL_BINS, 12);
    // -3 falls in the third bin, 2 in the bin holding 5.35 R from the start.
    expect(bins.counts[Math.floor(0.35 / bins.width)]).toBe(1);
    expect(bins.counts[Math.floor(5.35 / bins.width)]).toBe(1);
  });

  it('spans a tenth of an R around a value every run shares, and is null without runs', () => {
    expect(nullBins(Float64Array.from([1, 1]), [1])).toMatchObject({ from: 0.95, width: 0.1 / NULL_BINS });
    expect(nullBins(new Float64Array(0), [1])).toBeNull();
  });
});
