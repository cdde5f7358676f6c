import { checkLength, warmingUp } from './window.js';

export interface BollingerBands {
  middle: Float64Array;
  upper: Float64Array;
  lower: Float64Array;
}

/**
 * Bollinger bands: the SMA of the last n values ± k population standard deviations of the same n values.
 * Warm-up: NaN before index n - 1. Each window is summed afresh (two passes) because a running sum of squares
 * loses the variance to cancellation at prices in the tens of thousands; n is at most 500, so this stays cheap.
 */
export function bollinger(x: Float64Array, n: number, k: number): BollingerBands {
  checkLength(n, 'bb');
  if (!(k > 0) || !Number.isFinite(k)) throw new RangeError(`bb: the width must be a positive number of deviations, got ${k}`);
  const middle = warmingUp(x.length, n - 1);
  const upper = warmingUp(x.length, n - 1);
  const lower = warmingUp(x.length, n - 1);
  for (let i = n - 1; i < x.length; i++) {
    let sum = 0;
    for (let j = i - n + 1; j <= i; j++) sum += x[j]!;
    const mean = sum / n;
    let squares = 0;
    for (let j = i - n + 1; j <= i; j++) {
      const d = x[j]! - mean;
      squares += d * d;
    }
    const width = k * Math.sqrt(squares / n);
    middle[i] = mean;
    upper[i] = mean + width;
    lower[i] = mean - width;
  }
  return { middle, upper, lower };
}
