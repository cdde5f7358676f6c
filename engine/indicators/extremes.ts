import { checkLength, warmingUp } from './window.js';

/**
 * Highest of the last n values, the current bar included (a breakout over the prior n bars compares with the
 * previous bar's value). Warm-up: NaN before index n - 1.
 */
export const highest = (x: Float64Array, n: number): Float64Array => extreme(x, n, 1, 'hi');

/** Lowest of the last n values, the current bar included. Warm-up: NaN before index n - 1. */
export const lowest = (x: Float64Array, n: number): Float64Array => extreme(x, n, -1, 'lo');

/**
 * A monotonic queue of indices in a ring of n slots: each index enters and leaves once, so the whole series
 * costs O(length) whatever n is. `sign` turns the lowest into the highest of the negated values, exactly.
 */
function extreme(x: Float64Array, n: number, sign: 1 | -1, what: string): Float64Array {
  checkLength(n, what);
  const out = warmingUp(x.length, n - 1);
  const ring = new Int32Array(n);
  let head = 0;
  let size = 0;
  for (let i = 0; i < x.length; i++) {
    if (size > 0 && ring[head]! <= i - n) {
      head = head + 1 === n ? 0 : head + 1;
      size--;
    }
    const v = sign * x[i]!;
    while (size > 0) {
      const back = (head + size - 1) % n;
      if (sign * x[ring[back]!]! > v) break;
      size--;
    }
    ring[(head + size) % n] = i;
    size++;
    if (i >= n - 1) out[i] = x[ring[head]!]!;
  }
  return out;
}
