import { HORIZON, TOUCH_ATR, TOUCH_WITHIN } from './envelope.js';
import { DEFAULT_OPTIONS } from './issuer.js';
import type { Score } from './score.js';

/**
 * Measured calibration of a market and timeframe, from its scored envelopes, cell by cell: what an envelope
 * states is ten things, and each is held to its own outcomes.
 *
 * - A touch cell is one (size, horizon) of the nine: the odds of a 0.5, 1 or 2 ATR touch within 6, 12 or 24 bars.
 *   Its ece is the binned expected calibration error of that cell's (odds, outcome) pairs alone, in ten equal-width
 *   bins of the stated odds, [0, 0.1), [0.1, 0.2), …, [0.9, 1]: Σ over bins of (pairs in bin / pairs) ·
 *   |mean odds in bin − share that happened in bin|. 0 is perfect. Cells are never pooled: pooled over nine cells,
 *   one cell stating too little and another too much land in the same bins and cancel.
 * - The band is the tenth: each (envelope, step k = 1..24) states that the close k bars on stays within the ends
 *   at k with its nominal odds (band.nominal, 0.8 for the in-process forecaster). coverage is the share that did;
 *   its ece is |coverage − nominal|, the one-bin ece of a statement made at a single odds.
 * - effective: the outcomes a cell rests on, counted honestly. Envelopes issued bar after bar watch overlapping
 *   stretches: two issued g bars apart share h − g of the h bars a horizon-h outcome is read from, so each counts
 *   min(1, g / h) beside the one before it (the first counts 1). Issued every bar, a 6-bar cell rests on about n / 6
 *   outcomes and the band (24 bars) on n / 24; issued a day apart, each counts whole. The gap is read from issue
 *   times in bar lengths, so a CME halt between two issues counts as bars that did not print (a little generous
 *   for an outcome that straddles a weekend).
 * - Each cell is drawn and labelled on its own by the spec's rule: unmeasured (not drawn) below 30 effective
 *   outcomes, else solid when its ece is under 0.05, dashed under 0.10, otherwise not drawn.
 * - The pair's figures never read better than a cell: ece is the largest cell ece (the band's included), coverage
 *   is the band's, and draw and label (drawOf) are the worst of the ten, so one cell not earning the label keeps
 *   the whole envelope from wearing it. n counts scored envelopes.
 * Values keep four decimals (effective is whole), and labels read the kept values. Null while n is 0.
 */

export const ECE_BINS = 10;
/** Fewer effective outcomes than this and a cell reads unmeasured. */
export const MIN_SCORED = 30;
export const SOLID_BELOW = 0.05;
export const DASHED_BELOW = 0.1;

export type Draw = 'solid' | 'dashed' | 'none';
/** The words beside a cell: how far it can be taken at its word. */
export type Label = 'calibrated' | 'loosely calibrated' | 'not calibrated' | 'unmeasured';

interface Drawn {
  draw: Draw;
  label: Label;
}

/** One touch cell: the odds of a touch of `atr` ATR (either way) within `within` bars. */
export interface TouchCell extends Drawn {
  atr: number;
  within: number;
  n: number;
  effective: number;
  ece: number | null;
  /** The mean odds stated and the share that happened. */
  stated: number | null;
  happened: number | null;
}

/** The band: the share of closes at k = 1..24 held within its ends, against the share it promised. */
export interface BandCell extends Drawn {
  within: number;
  n: number;
  effective: number;
  nominal: number | null;
  coverage: number | null;
  ece: number | null;
}

export interface Calibration {
  n: number;
  ece: number | null;
  coverage: number | null;
  touch: TouchCell[];
  band: BandCell;
}

export interface CalibrateOptions {
  /** The pair's bar length in seconds: how far apart issues are, in bars. */
  bar: number;
  /** Count only the scores known by then (scored_t <= asOf); all by default. */
  asOf?: number;
  /** The band's nominal coverage each scored envelope stated (the in-process forecaster's by default). */
  nominal?: (s: Score) => number;
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/** The bin of stated odds p: floor(10p), with p = 1 in the last bin. */
const binOf = (p: number): number => Math.min(ECE_BINS - 1, Math.floor(p * ECE_BINS));

/** The spec's rule for one cell: unmeasured under 30 effective outcomes, else by its ece. */
export function drawCell(effective: number, ece: number | null): Drawn {
  if (effective < MIN_SCORED || ece === null) return { draw: 'none', label: 'unmeasured' };
  if (ece < SOLID_BELOW) return { draw: 'solid', label: 'calibrated' };
  if (ece < DASHED_BELOW) return { draw: 'dashed', label: 'loosely calibrated' };
  return { draw: 'none', label: 'not calibrated' };
}

/** Worst first: a cell measured and failing, then one not measured, then loosely, then calibrated. */
const RANK: Readonly<Record<Label, number>> = { 'not calibrated': 0, unmeasured: 1, 'loosely calibrated': 2, calibrated: 3 };

/** The pair's draw and label: the worst of its ten cells'. */
export function drawOf(c: Calibration): Drawn {
  let worst: Drawn = c.band;
  for (const cell of c.touch) if (RANK[cell.label] < RANK[worst.label]) worst = cell;
  return { draw: worst.draw, label: worst.label };
}

/** Effective outcomes of each horizon h (index into `horizons`), from issue times sorted ascending. */
function effectiveCounts(times: readonly number[], bar: number, horizons: readonly number[]): number[] {
  return horizons.map((h) => {
    if (times.length === 0) return 0;
    let sum = 1;
    for (let i = 1; i < times.length; i++) sum += Math.min(1, (times[i]! - times[i - 1]!) / (h * bar));
    // A hair under a whole number is that number, not one less: the sum of n / h parts may land on 29.999….
    return Math.floor(sum + 1e-9);
  });
}

/** Calibration of the scores known by `asOf`, cell by cell. */
export function calibrate(scores: readonly Score[], options: CalibrateOptions): Calibration {
  const asOf = options.asOf ?? Infinity;
  const nominalOf = options.nominal ?? (() => DEFAULT_OPTIONS.nominal);
  const known = scores.filter((s) => s.scored_t <= asOf).sort((a, b) => a.issued_t - b.issued_t);
  const n = known.length;
  const cells = TOUCH_ATR.length * TOUCH_WITHIN.length;
  const count = new Float64Array(cells * ECE_BINS);
  const stated = new Float64Array(cells * ECE_BINS);
  const happened = new Float64Array(cells * ECE_BINS);
  let inside = 0;
  let promised = 0;
  for (const s of known) {
    inside += s.inside;
    promised += nominalOf(s);
    for (let j = 0; j < cells; j++) {
      const p = s.odds[j]!;
      const at = j * ECE_BINS + binOf(p);
      count[at]!++;
      stated[at]! += p;
      if (s.touched & (1 << j)) happened[at]!++;
    }
  }
  const horizons = [...TOUCH_WITHIN, HORIZON];
  const effective = effectiveCounts(
    known.map((s) => s.issued_t),
    options.bar,
    horizons,
  );
  const touch: TouchCell[] = [];
  for (let j = 0; j < cells; j++) {
    let gap = 0;
    let said = 0;
    let did = 0;
    for (let b = j * ECE_BINS; b < (j + 1) * ECE_BINS; b++) {
      gap += Math.abs(stated[b]! - happened[b]!);
      said += stated[b]!;
      did += happened[b]!;
    }
    const w = j % TOUCH_WITHIN.length;
    const ece = n ? round4(gap / n) : null;
    const eff = effective[w]!;
    touch.push({
      atr: TOUCH_ATR[Math.floor(j / TOUCH_WITHIN.length)]!,
      within: TOUCH_WITHIN[w]!,
      n,
      effective: eff,
      ece,
      stated: n ? round4(said / n) : null,
      happened: n ? round4(did / n) : null,
      ...drawCell(eff, ece),
    });
  }
  const coverage = n ? round4(inside / (n * HORIZON)) : null;
  const nominal = n ? round4(promised / n) : null;
  const bandEce = coverage === null || nominal === null ? null : round4(Math.abs(coverage - nominal));
  const bandEffective = effective[horizons.length - 1]!;
  const band: BandCell = { within: HORIZON, n, effective: bandEffective, nominal, coverage, ece: bandEce, ...drawCell(bandEffective, bandEce) };
  const eces = [...touch.map((c) => c.ece), bandEce].filter((e): e is number => e !== null);
  return { n, ece: eces.length ? Math.max(...eces) : null, coverage, touch, band };
}
