/** How many equal bins the random null's run totals are counted in. */
export const NULL_BINS = 40;
/** The share of the range added each side, so the outermost totals and marks do not sit on the edge. */
const PAD = 0.05;

/** The null's run totals counted in NULL_BINS equal bins of `width` R from `from`. */
export interface NullBins {
  from: number;
  width: number;
  counts: number[];
}

/**
 * The random null's run totals as a histogram over their range, widened to hold `marks` (the rule's total R, its
 * neighbours'), padded 5 % each side: what a rehearsal states and its plate draws. Null without runs.
 */
export function nullBins(totals: ArrayLike<number>, marks: readonly number[]): NullBins | null {
  if (totals.length === 0) return null;
  let lo = Infinity;
  let hi = -Infinity;
  for (const values of [totals, marks]) {
    for (let i = 0; i < values.length; i++) {
      lo = Math.min(lo, values[i]!);
      hi = Math.max(hi, values[i]!);
    }
  }
  const span = hi - lo || 1;
  const from = lo - PAD * span;
  const width = (hi - lo + 2 * PAD * span) / NULL_BINS;
  const counts = new Array<number>(NULL_BINS).fill(0);
  for (let i = 0; i < totals.length; i++) counts[Math.min(NULL_BINS - 1, Math.floor((totals[i]! - from) / width))]!++;
  return { from, width, counts };
}
