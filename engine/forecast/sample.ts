import { HORIZON, TOUCHES, TOUCH_WITHIN } from './envelope.js';

/** Read once: the per-bar loops would otherwise go through the module binding on every use. */
const T = TOUCHES;
const W = TOUCH_WITHIN.length;
/** What each past bar is kept as: its 24 close distances, then its farthest reach within each touch horizon. */
export const COLUMNS = HORIZON + W;
/** A reach under this many ATR (a market that did not move for h bars) is read as this in the regime's logarithm. */
const LEAST_REACH = 0.01;
/**
 * The regime's logarithms are kept as whole multiples of 1/4096 (a step of 0.024% in ATR or reach), so its sums
 * are exact integers: they move on by one arrival and one departure and still hold the same bits as sums taken
 * afresh. |ln| stays under 20 for any price, so a square is under 7e9 and a sum over a million bars under 2^53.
 */
const LOG_STEP = 4096;
const ln = (x: number): number => Math.round(Math.log(x) * LOG_STEP);

/**
 * How the sample's moves scale with the ATR they were measured in (as a share of the close): per touch horizon, the
 * slope of ln reach on ln ATR.
 */
export interface Regime {
  /** The mean of ln ATR over the sample: the level today's ATR is compared with. */
  level: number;
  /** Per horizon (6, 12, 24 bars): d ln(reach in ATR) / d ln ATR across the sample; 0 when the ATR never varied. */
  slopes: Float64Array;
}

/**
 * The trailing sample: the last `capacity` past bars whose 24 following bars had closed, each kept as its 24
 * close distances and its farthest reach within 6, 12 and 24 bars (all in its own ATR), its nine touch outcomes
 * and the logarithm of that ATR as a share of its close. A ring buffer holds them in arrival order so the oldest can leave as a new one
 * arrives; beside it each column keeps its values sorted, so a quantile or a share beyond a level is one binary
 * search and an arrival is one binary search and one shift; the regime's sums move on with them. The contents are
 * a set and the sums exact integers: the same bars give the same numbers whatever order they came in, which is why
 * the walk and a one-off issue agree to the bit.
 */
export class TrailingSample {
  size = 0;
  private oldest = 0;
  private readonly ring: Float64Array;
  private readonly masks: Int32Array;
  /** Per slot: ln ATR, then ln reach per horizon, in steps of 1/LOG_STEP (the regime's variables, taken on arrival). */
  private readonly logs: Int32Array;
  /** Over the sample, in steps: Σ ln ATR, Σ (ln ATR)², and per horizon Σ ln reach and Σ ln ATR · ln reach. */
  private sx = 0;
  private sxx = 0;
  private readonly sy = new Float64Array(W);
  private readonly sxy = new Float64Array(W);
  private readonly sorted: Float64Array[];
  private readonly touched = new Int32Array(TOUCHES);
  private readonly slopes = new Float64Array(W);

  constructor(readonly capacity: number) {
    this.ring = new Float64Array(capacity * COLUMNS);
    this.masks = new Int32Array(capacity);
    this.logs = new Int32Array(capacity * (1 + W));
    this.sorted = Array.from({ length: COLUMNS }, () => new Float64Array(capacity));
  }

  /** Takes one bar's COLUMNS values, touch mask and ATR as a share of its close, pushing out the oldest when full. */
  push(values: Float64Array, mask: number, atr: number): void {
    let slot: number;
    if (this.size < this.capacity) {
      slot = this.size;
      for (let k = 0; k < COLUMNS; k++) insert(this.sorted[k]!, this.size, values[k]!);
      this.size++;
    } else {
      slot = this.oldest;
      this.oldest = (this.oldest + 1) % this.capacity;
      const base = slot * COLUMNS;
      for (let k = 0; k < COLUMNS; k++) replace(this.sorted[k]!, this.size, this.ring[base + k]!, values[k]!);
      this.count(this.masks[slot]!, -1);
      this.sum(slot, -1);
    }
    this.ring.set(values, slot * COLUMNS);
    this.masks[slot] = mask;
    const at = slot * (1 + W);
    this.logs[at] = ln(atr);
    for (let w = 0; w < W; w++) this.logs[at + 1 + w] = ln(Math.max(LEAST_REACH, values[HORIZON + w]!));
    this.count(mask, 1);
    this.sum(slot, 1);
  }

  /** The q-quantile of the distances at step k (1-based), linear between order statistics (type 7). */
  quantile(k: number, q: number): number {
    const a = this.sorted[k - 1]!;
    const h = (this.size - 1) * q;
    const lo = Math.floor(h);
    const hi = Math.min(lo + 1, this.size - 1);
    return a[lo]! + (h - lo) * (a[hi]! - a[lo]!);
  }

  /** How often touch `index` happened, with half an event added to one extra sample so no odds read 0 or 1. */
  odds(index: number): number {
    return (this.touched[index]! + 0.5) / (this.size + 1);
  }

  /** How often the reach within horizon `w` (an index of TOUCH_WITHIN) came to x ATR or more, counted as odds() counts. */
  beyond(w: number, x: number): number {
    const a = this.sorted[HORIZON + w]!;
    return (this.size - search(a, this.size, x, false) + 0.5) / (this.size + 1);
  }

  /** The sample's regime: the mean ln ATR, and per horizon the least-squares slope of ln reach on ln ATR. */
  regime(): Regime {
    const n = this.size;
    const xx = n * this.sxx - this.sx * this.sx;
    for (let w = 0; w < W; w++) this.slopes[w] = xx > 0 ? (n * this.sxy[w]! - this.sx * this.sy[w]!) / xx : 0;
    return { level: this.sx / n / LOG_STEP, slopes: this.slopes };
  }

  /** Adds (by 1) or takes away (by −1) the regime's terms of the bar in `slot`. */
  private sum(slot: number, by: number): void {
    const at = slot * (1 + W);
    const x = this.logs[at]!;
    this.sx += by * x;
    this.sxx += by * x * x;
    for (let w = 0; w < W; w++) {
      const y = this.logs[at + 1 + w]!;
      this.sy[w]! += by * y;
      this.sxy[w]! += by * x * y;
    }
  }

  private count(mask: number, by: number): void {
    for (let b = 0; b < T; b++) if (mask & (1 << b)) this.touched[b]! += by;
  }
}

/** First index in a[0..n) whose value is >= x (or > x when `after`). */
function search(a: Float64Array, n: number, x: number, after: boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x || (after && a[mid] === x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insert(a: Float64Array, n: number, x: number): void {
  const at = search(a, n, x, true);
  a.copyWithin(at + 1, at, n);
  a[at] = x;
}

/** Swaps one copy of `old` for x in the sorted a[0..n) with a single shift of the values between them. */
function replace(a: Float64Array, n: number, old: number, x: number): void {
  const at = search(a, n, old, false);
  if (x >= old) {
    const to = search(a, n, x, true) - 1;
    a.copyWithin(at, at + 1, to + 1);
    a[to] = x;
  } else {
    const to = search(a, n, x, false);
    a.copyWithin(to + 1, to, at);
    a[to] = x;
  }
}
