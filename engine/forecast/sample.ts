import { HORIZON, TOUCHES } from './envelope.js';

/** Read once: the per-bar loops would otherwise go through the module binding on every use. */
const H = HORIZON;
const T = TOUCHES;

/**
 * The trailing sample: the last `capacity` past bars whose 24 following bars had closed, each kept as its 24
 * close distances in ATR units and its nine touch outcomes. A ring buffer holds them in arrival order so the
 * oldest can leave as a new one arrives; beside it each step k keeps its distances sorted, so a quantile is one
 * read and an arrival is one binary search and one shift. The contents are a set: the same bars give the same
 * sorted arrays and counts whatever order they came in, which is why the walk and a one-off issue agree.
 */
export class TrailingSample {
  size = 0;
  private oldest = 0;
  private readonly ring: Float64Array;
  private readonly masks: Int32Array;
  private readonly sorted: Float64Array[];
  private readonly touched = new Int32Array(TOUCHES);

  constructor(readonly capacity: number) {
    this.ring = new Float64Array(capacity * HORIZON);
    this.masks = new Int32Array(capacity);
    this.sorted = Array.from({ length: HORIZON }, () => new Float64Array(capacity));
  }

  /** Takes one bar's HORIZON distances and touch mask, pushing out the oldest when full. */
  push(distances: Float64Array, mask: number): void {
    let slot: number;
    if (this.size < this.capacity) {
      slot = this.size;
      for (let k = 0; k < H; k++) insert(this.sorted[k]!, this.size, distances[k]!);
      this.size++;
    } else {
      slot = this.oldest;
      this.oldest = (this.oldest + 1) % this.capacity;
      const base = slot * H;
      for (let k = 0; k < H; k++) replace(this.sorted[k]!, this.size, this.ring[base + k]!, distances[k]!);
      this.count(this.masks[slot]!, -1);
    }
    this.ring.set(distances, slot * H);
    this.masks[slot] = mask;
    this.count(mask, 1);
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
