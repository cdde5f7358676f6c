import { checkLength, warmingUp } from './window.js';

/**
 * Wilder's relative strength index of closes.
 * Changes start at index 1; the average gain and loss are seeded with the simple mean of the first n changes
 * (indices 1..n) and then smoothed as avg = change / n + avg (n - 1) / n. Warm-up: NaN before index n.
 * No losses reads 100; no gains reads 0; neither (a flat stretch) reads 50.
 */
export function rsi(close: Float64Array, n: number): Float64Array {
  checkLength(n, 'rsi');
  const out = warmingUp(close.length, n);
  if (close.length <= n) return out;
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= n; i++) {
    const d = close[i]! - close[i - 1]!;
    if (d > 0) gain += d;
    else loss -= d;
  }
  gain /= n;
  loss /= n;
  out[n] = strength(gain, loss);
  const w = 1 / n;
  const keep = 1 - w;
  for (let i = n + 1; i < close.length; i++) {
    const d = close[i]! - close[i - 1]!;
    gain = w * (d > 0 ? d : 0) + keep * gain;
    loss = w * (d < 0 ? -d : 0) + keep * loss;
    out[i] = strength(gain, loss);
  }
  return out;
}

const strength = (gain: number, loss: number): number =>
  loss === 0 ? (gain === 0 ? 50 : 100) : 100 - 100 / (1 + gain / loss);
