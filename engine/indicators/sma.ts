import { checkLength, warmingUp } from './window.js';

/**
 * Simple moving average of the last n values, the current one included.
 * Warm-up: NaN before index n - 1. A running sum, so each bar costs one add and one subtract.
 */
export function sma(x: Float64Array, n: number): Float64Array {
  checkLength(n, 'sma');
  const out = warmingUp(x.length, n - 1);
  let sum = 0;
  for (let i = 0; i < x.length; i++) {
    sum += x[i]!;
    if (i >= n) sum -= x[i - n]!;
    if (i >= n - 1) out[i] = sum / n;
  }
  return out;
}
