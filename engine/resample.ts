import { allocBars, type Bars } from './bars.js';
import type { Span } from './calendar.js';

/** Coarser bars built from finer ones, with how many finer bars went into each. */
export interface Resampled {
  bars: Bars;
  /** Per output bar, the number of source bars it was built from. */
  sources: Int32Array;
  /** The number of source bars a whole output bar spans (output length / source length). */
  perBar: number;
}

/**
 * Builds bars of outSeconds from sorted bars of srcSeconds by time bucket: a bucket opens at a multiple of
 * outSeconds; o = first open, h = highest high, l = lowest low, c = last close, v = sum of volumes. A bucket is
 * emitted when at least one source bar fell in it, so a thin bucket is still a bar; `sources` says how thin.
 */
export function resample(src: Bars, srcSeconds: number, outSeconds: number): Resampled {
  if (!(srcSeconds > 0 && outSeconds > srcSeconds && outSeconds % srcSeconds === 0)) {
    throw new RangeError(`cannot build ${outSeconds}s bars from ${srcSeconds}s bars`);
  }
  const bucketOf = (t: number) => Math.floor(t / outSeconds) * outSeconds;

  // First pass counts the buckets so every output array is allocated once.
  let count = 0;
  let last = -Infinity;
  for (let i = 0; i < src.length; i++) {
    const b = bucketOf(src.t[i]!);
    if (b < last) throw new RangeError(`source bars are not in time order at index ${i}`);
    if (b !== last) count++;
    last = b;
  }

  const out = allocBars(count);
  const sources = new Int32Array(count);
  let j = -1;
  last = -Infinity;
  for (let i = 0; i < src.length; i++) {
    const b = bucketOf(src.t[i]!);
    const h = src.h[i]!;
    const l = src.l[i]!;
    if (b !== last) {
      j++;
      last = b;
      out.t[j] = b;
      out.o[j] = src.o[i]!;
      out.h[j] = h;
      out.l[j] = l;
      out.v[j] = 0;
    } else {
      if (h > out.h[j]!) out.h[j] = h;
      if (l < out.l[j]!) out.l[j] = l;
    }
    out.c[j] = src.c[i]!;
    out.v[j] = out.v[j]! + src.v[i]!;
    sources[j]!++;
  }
  return { bars: out, sources, perBar: outSeconds / srcSeconds };
}

/**
 * The built bars that are whole: opening at or after `from`, with their whole span inside the stretches the source
 * holds history for (`held`, in time order, not overlapping). A bucket the source's history stops inside is a bar
 * still forming, or one whose end the source has not seen yet: it is not a closed bar, so it is left out, never
 * served or read as one. A bucket wholly held keeps its thin bars (a hole in the finer bars), as `sources` counts.
 */
export function wholeBuckets(r: Resampled, outSeconds: number, from: number, held: readonly Span[]): Resampled {
  const keep: number[] = [];
  let h = 0;
  for (let i = 0; i < r.bars.length; i++) {
    const t = r.bars.t[i]!;
    while (h < held.length && held[h]!.to <= t) h++;
    if (t >= from && h < held.length && held[h]!.from <= t && t + outSeconds <= held[h]!.to) keep.push(i);
  }
  if (keep.length === r.bars.length) return r;
  const bars = allocBars(keep.length);
  const sources = new Int32Array(keep.length);
  keep.forEach((i, j) => {
    for (const f of ['t', 'o', 'h', 'l', 'c', 'v'] as const) bars[f][j] = r.bars[f][i]!;
    sources[j] = r.sources[i]!;
  });
  return { bars, sources, perBar: r.perBar };
}
