import { ECE_BINS, type Score } from '../../engine/forecast/index.js';
import { TOUCHES } from '../../engine/forecast/envelope.js';

/**
 * Measures of scored envelopes that the deck does not state, for tests and the bench to hold its own figures against.
 */

/** The ece a pair was drawn by before calibration went cell by cell: the nine cells' pairs pooled in one set of ten bins. */
export function pooledEce(scores: readonly Score[]): number {
  const stated = new Float64Array(ECE_BINS);
  const happened = new Float64Array(ECE_BINS);
  for (const s of scores) {
    s.odds.forEach((p, j) => {
      const b = Math.min(ECE_BINS - 1, Math.floor(p * ECE_BINS));
      stated[b]! += p;
      if (s.touched & (1 << j)) happened[b]!++;
    });
  }
  return stated.reduce((sum, x, b) => sum + Math.abs(x - happened[b]!), 0) / (scores.length * TOUCHES);
}

/** The Brier score of the nine odds: the mean squared gap between each odds and what happened (0 or 1); lower is better. */
export const brier = (scores: readonly Score[]): number =>
  scores.reduce((sum, s) => sum + s.odds.reduce((e, p, b) => e + (p - ((s.touched >> b) & 1)) ** 2, 0), 0) / (TOUCHES * scores.length);
