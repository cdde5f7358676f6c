import { checkLength, warmingUp } from './window.js';

/** The seed of an EMA of look-back n: the simple mean of the first n values. */
function seedOf(x: Float64Array, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += x[i]!;
  return sum / n;
}

/**
 * Exponential moving average, alpha = 2 / (n + 1), seeded with the SMA of the first n values.
 * Warm-up: NaN before index n - 1; index n - 1 holds the seed.
 */
export function ema(x: Float64Array, n: number): Float64Array {
  checkLength(n, 'ema');
  const out = warmingUp(x.length, n - 1);
  if (x.length < n) return out;
  let prev = seedOf(x, n);
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

/**
 * Two EMAs of one series, each the very values ema(x, n) gives, in one pass: each bar of an EMA waits on its previous
 * one, so two run side by side in about the time of one (a rule crossing two averages reads both).
 */
export function emaPair(x: Float64Array, n1: number, n2: number): [Float64Array, Float64Array] {
  checkLength(n1, 'ema');
  checkLength(n2, 'ema');
  if (x.length < Math.max(n1, n2) || n1 === n2) return [ema(x, n1), ema(x, n2)];
  const pair: [Float64Array, Float64Array] = [warmingUp(x.length, n1 - 1), warmingUp(x.length, n2 - 1)];
  // The order is settled before the loops: V8 compiles a long loop while it runs (on-stack replacement), before
  // anything after it has run, and on Node 20 that code could deopt at a test after the loop on every later call.
  const [a, b, short, long] = n1 < n2 ? [pair[0], pair[1], n1, n2] : [pair[1], pair[0], n2, n1];
  const alphaA = 2 / (short + 1);
  const keepA = 1 - alphaA;
  const alphaB = 2 / (long + 1);
  const keepB = 1 - alphaB;
  let prevA = seedOf(x, short);
  a[short - 1] = prevA;
  for (let i = short; i < long; i++) {
    prevA = alphaA * x[i]! + keepA * prevA;
    a[i] = prevA;
  }
  let prevB = seedOf(x, long);
  b[long - 1] = prevB;
  for (let i = long; i < x.length; i++) {
    const v = x[i]!;
    prevA = alphaA * v + keepA * prevA;
    a[i] = prevA;
    prevB = alphaB * v + keepB * prevB;
    b[i] = prevB;
  }
  return pair;
}
