// The one way the bench summarizes repeated figures.

/** The least, the median and the most of some figures. */
export interface Spread {
  min: number;
  median: number;
  max: number;
}

export function spreadOf(xs: readonly number[]): Spread {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return { min: s[0]!, median: s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2, max: s.at(-1)! };
}

export const median = (xs: readonly number[]): number => spreadOf(xs).median;
