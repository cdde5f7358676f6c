import { describe, expect, it } from 'vitest';
import { calibrationOf, wilsonLower } from './wilson.js';

// Worked by hand with z = 1.96 (z² = 3.8416), e.g. 8/10: p = 0.8, z²/2n = 0.19208, p(1-p)/n = 0.016,
// z²/4n² = 0.009604, z·sqrt(0.025604) = 0.313624; (0.8 + 0.19208 - 0.313624) / 1.38416 = 0.49016.
// k = n: the bound is 1 / (1 + z²/n), e.g. 10/10: 1 / 1.38416 = 0.72246; 7/7: 1 / 1.548800 = 0.64566.
describe('the Wilson lower bound (95%)', () => {
  it.each([
    [8, 10, 0.4902],
    [10, 10, 0.7225],
    [7, 7, 0.6457],
    [5, 7, 0.3589],
    [12, 14, 0.6006],
    [81, 100, 0.7222],
    [1, 1, 0.2065],
    [0, 10, 0],
  ])('%i/%i is %f', (k, n, lower) => {
    expect(wilsonLower(k, n)).toBe(lower);
  });

  it('is null with no trials, and refuses k outside 0..n', () => {
    expect(wilsonLower(0, 0)).toBeNull();
    expect(() => wilsonLower(3, 2)).toThrow(RangeError);
    expect(() => wilsonLower(1.5, 2)).toThrow(RangeError);
  });

  it('is below the rate and grows with the trials at the same rate', () => {
    expect(wilsonLower(4, 5)!).toBeLessThan(wilsonLower(40, 50)!);
    expect(wilsonLower(40, 50)!).toBeLessThan(0.8);
    expect(calibrationOf(8, 10)).toEqual({ k: 8, n: 10, rate: 0.8, wilson_lower: 0.4902 });
    expect(calibrationOf(0, 0)).toEqual({ k: 0, n: 0, rate: null, wilson_lower: null });
  });
});
