import { checkLength, warmingUp } from './window.js';

/**
 * Average true range with Wilder's smoothing.
 * True range: max(h - l, |h - previous close|, |l - previous close|); the first bar has no previous close, so
 * its true range is h - l. The average is seeded with the simple mean of the first n true ranges (indices
 * 0..n-1) and then smoothed as atr = tr / n + atr (n - 1) / n. Warm-up: NaN before index n - 1.
 */
export function atr(high: Float64Array, low: Float64Array, close: Float64Array, n: number): Float64Array {
  checkLength(n, 'atr');
  const length = close.length;
  const out = warmingUp(length, n - 1);
  if (length < n) return out;
  let avg = 0;
  const w = 1 / n;
  const keep = 1 - w;
  for (let i = 0; i < length; i++) {
    const h = high[i]!;
    const l = low[i]!;
    let tr = h - l;
    if (i > 0) {
      const pc = close[i - 1]!;
      const up = h > pc ? h - pc : pc - h;
      const down = l > pc ? l - pc : pc - l;
      if (up > tr) tr = up;
      if (down > tr) tr = down;
    }
    if (i < n) {
      avg += tr;
      if (i === n - 1) out[i] = avg /= n;
    } else {
      avg = w * tr + keep * avg;
      out[i] = avg;
    }
  }
  return out;
}
