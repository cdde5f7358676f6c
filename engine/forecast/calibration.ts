import { HORIZON } from './envelope.js';
import type { Score } from './score.js';

/**
 * Measured calibration of a market and timeframe, from its scored envelopes.
 *
 * - ece: the binned expected calibration error of the touch odds. Every scored envelope gives nine pairs (the
 *   odds of a 0.5, 1 and 2 ATR touch within 6, 12 and 24 bars, and whether it happened). The pairs fall in ten
 *   equal-width bins of the stated odds, [0, 0.1), [0.1, 0.2), …, [0.9, 1]; ece = Σ over bins of
 *   (pairs in bin / all pairs) · |mean odds in bin − share that happened in bin|. 0 is perfect.
 * - coverage: the share of (envelope, step k) pairs, k = 1..24, whose close at step k stayed within the band's
 *   ends at k. Each step's band is built to hold its nominal share (band.nominal, 0.8 for the in-process
 *   forecaster), so coverage reads directly against that number.
 * - n: scored envelopes. Both are null while n is 0. Values keep four decimals, and draw reads the kept value.
 */
export interface Calibration {
  n: number;
  ece: number | null;
  coverage: number | null;
}

export const ECE_BINS = 10;
/** Fewer scored envelopes than this and a pair reads unmeasured. */
export const MIN_SCORED = 30;
export const SOLID_BELOW = 0.05;
export const DASHED_BELOW = 0.1;

export type Draw = 'solid' | 'dashed' | 'none';
/** The words beside the band: how far its touch odds can be taken at their word. */
export type Label = 'calibrated' | 'loosely calibrated' | 'not calibrated' | 'unmeasured';

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/** The bin of stated odds p: floor(10p), with p = 1 in the last bin. */
const binOf = (p: number): number => Math.min(ECE_BINS - 1, Math.floor(p * ECE_BINS));

/** Calibration of the scores known by `asOf` (scored_t <= asOf), all of them by default. */
export function calibrate(scores: readonly Score[], asOf = Infinity): Calibration {
  const count = new Float64Array(ECE_BINS);
  const stated = new Float64Array(ECE_BINS);
  const happened = new Float64Array(ECE_BINS);
  let n = 0;
  let inside = 0;
  for (const s of scores) {
    if (s.scored_t > asOf) continue;
    n++;
    inside += s.inside;
    s.odds.forEach((p, j) => {
      const b = binOf(p);
      count[b]!++;
      stated[b]! += p;
      if (s.touched & (1 << j)) happened[b]!++;
    });
  }
  if (n === 0) return { n, ece: null, coverage: null };
  let pairs = 0;
  let gap = 0;
  for (let b = 0; b < ECE_BINS; b++) {
    pairs += count[b]!;
    gap += Math.abs(stated[b]! - happened[b]!);
  }
  return { n, ece: round4(gap / pairs), coverage: round4(inside / (n * HORIZON)) };
}

/** Solid when ece is under 0.05, dashed under 0.10, else not drawn; under 30 scored envelopes, unmeasured. */
export function drawOf(c: Calibration): { draw: Draw; label: Label } {
  if (c.n < MIN_SCORED || c.ece === null) return { draw: 'none', label: 'unmeasured' };
  if (c.ece < SOLID_BELOW) return { draw: 'solid', label: 'calibrated' };
  if (c.ece < DASHED_BELOW) return { draw: 'dashed', label: 'loosely calibrated' };
  return { draw: 'none', label: 'not calibrated' };
}
