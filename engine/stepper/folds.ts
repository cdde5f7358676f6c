import { statsOf, type RStats } from './stats.js';

/**
 * Walk-forward folds: the window cut into k consecutive stretches of (nearly) equal bar count, each trade counted
 * in the fold its entry filled in. A rule from the forge has no fitted parameters, so every fold is out of sample
 * as it stands; what the folds show is whether the evidence holds across time or comes from one stretch of it.
 */
export interface Fold {
  fold: number;
  /** Open time of the fold's first bar and close time of its last, unix seconds. */
  from: number;
  to: number;
  bars: number;
  stats: RStats;
}

export const MAX_FOLDS = 20;

export function foldsOf(
  trades: readonly { dir: number; r: number; fill: number }[],
  t: Float64Array,
  tf: number,
  start: number,
  end: number,
  k: number,
): Fold[] {
  const folds: Fold[] = [];
  const bars = end - start;
  for (let j = 0; j < k; j++) {
    const a = start + Math.floor((j * bars) / k);
    const b = start + Math.floor(((j + 1) * bars) / k);
    if (b <= a) continue;
    folds.push({ fold: j + 1, from: t[a]!, to: t[b - 1]! + tf, bars: b - a, stats: statsOf(trades.filter((x) => x.fill >= a && x.fill < b)) });
  }
  return folds;
}
