import { checkLength, warmingUp } from './window.js';

/**
 * Exponential moving average, alpha = 2 / (n + 1), seeded with the SMA of the first n values.
 * Warm-up: NaN before index n - 1; index n - 1 holds the seed.
 */
export function ema(x: Float64Array, n: number): Float64Array {
  checkLength(n, 'ema');
  const out = warmingUp(x.length, n - 1);
  if (x.length < n) return out;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += x[i]!;
  let prev = sum / n;
  out[n - 1] = prev;
  // alpha * x + (1 - alpha) * prev rather than prev + alpha * (x - prev): one step less in the chain each bar waits on.
  const alpha = 2 / (n + 1);
  const keep = 1 - alpha;
  for (let i = n; i < x.length; i++) {
    prev = alpha * x[i]! + keep * prev;
    out[i] = prev;
  }
  return out;
}
