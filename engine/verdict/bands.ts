import { nearestRank, round4 } from '../stepper/stats.js';

/** The 5th, 50th and 95th percentiles of a sample, by nearest rank (as the random null's), to four decimals. */
export interface Bands {
  p05: number;
  p50: number;
  p95: number;
}

export function bandsOf(values: Float64Array): Bands {
  const sorted = values.slice().sort();
  return { p05: round4(nearestRank(sorted, 0.05)), p50: round4(nearestRank(sorted, 0.5)), p95: round4(nearestRank(sorted, 0.95)) };
}
