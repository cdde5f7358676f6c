import { checkLength, warmingUp } from './window.js';

/**
 * A bar's true range against the close before it: the largest of h - l, |h - pc| and |l - pc|. For a bar (l <= h;
 * the deck reads no other: bars.ts and the tape's wire refuse them) that is the span from the lower of l and pc to
 * the higher of h and pc, the same subtraction and so the same bits. Written so, its two tests go the same way on
 * almost every bar (a close seldom lies outside the next bar's range), where the order of the three distances changes
 * from bar to bar. A previous close that is not a number (NaN) leaves the range h - l.
 */
export function trueRange(h: number, l: number, pc: number): number {
  return (pc > h ? pc : h) - (pc < l ? pc : l);
}

/**
 * Average true range with Wilder's smoothing.
 * True range: max(h - l, |h - previous close|, |l - previous close|); the first bar has no previous close, so
 * its true range is h - l. The average is seeded with the simple mean of the first n true ranges (indices
 * 0..n-1) and then smoothed as atr = tr / n + atr (n - 1) / n. Warm-up: NaN before index n - 1.
 * The seed and the smoothing are two loops, so the long one carries no test of where it is.
 */
export function atr(high: Float64Array, low: Float64Array, close: Float64Array, n: number): Float64Array {
  checkLength(n, 'atr');
  const length = close.length;
  const out = warmingUp(length, n - 1);
  if (length < n) return out;
  let avg = high[0]! - low[0]!;
  for (let i = 1; i < n; i++) avg += trueRange(high[i]!, low[i]!, close[i - 1]!);
  avg /= n;
  out[n - 1] = avg;
  const w = 1 / n;
  const keep = 1 - w;
  for (let i = n; i < length; i++) {
    avg = w * trueRange(high[i]!, low[i]!, close[i - 1]!) + keep * avg;
    out[i] = avg;
  }
  return out;
}
