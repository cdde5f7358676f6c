import { barAt, type Bars } from '../bars.js';
import { TIMEFRAME_SECONDS } from '../markets.js';
import { touchMask } from './after.js';
import { HORIZON, TOUCHES, type Envelope } from './envelope.js';

/** One envelope held against the 24 bars that followed it. */
export interface Score {
  issued_t: number;
  /** Close time of the 24th bar after the envelope's last bar: from then on the outcome is known. */
  scored_t: number;
  /** The nine touch odds as issued (size-major, as in the envelope). */
  odds: number[];
  /** Which of the nine touches happened: bit b for odds[b]. */
  touched: number;
  /** Steps k = 1..24 whose close stayed within the band's ends at k (inclusive). */
  inside: number;
}

/** What scoring reads of an envelope: its close, ATR, band ends per step k − 1 and touch odds. */
export interface Scorable {
  issued_t: number;
  close: number;
  atr: number;
  lower: ArrayLike<number>;
  upper: ArrayLike<number>;
  odds: ArrayLike<number>;
}

const H = HORIZON;

/**
 * Scores an envelope once its 24 following bars are in `bars` (bars of the envelope's timeframe, holding its last
 * bar); null before that, or when its last bar is not among them. Only the envelope's own numbers are used (its
 * close, ATR, band ends and odds), so any forecaster's envelope is scored the same way.
 */
export function scoreEnvelope(e: Envelope, bars: Bars): Score | null {
  const i = barAt(bars.t, e.last_bar_t);
  if (i < 0) return null;
  const scorable: Scorable = {
    issued_t: e.issued_t,
    close: e.close,
    atr: e.atr,
    lower: e.band.steps.map((s) => s.lower),
    upper: e.band.steps.map((s) => s.upper),
    odds: e.touch.map((t) => t.odds),
  };
  return scoreAt(scorable, bars, i, TIMEFRAME_SECONDS[e.tf]);
}

/** The score of an envelope whose last bar is bars[i], or null while its 24 following bars are not all there. */
export function scoreAt(e: Scorable, bars: Bars, i: number, tfSeconds: number): Score | null {
  if (i + H >= bars.length) return null;
  let inside = 0;
  for (let k = 1; k <= H; k++) {
    const c = bars.c[i + k]!;
    if (c >= e.lower[k - 1]! && c <= e.upper[k - 1]!) inside++;
  }
  return {
    issued_t: e.issued_t,
    scored_t: bars.t[i + H]! + tfSeconds,
    odds: Array.from({ length: TOUCHES }, (_, b) => e.odds[b]!),
    touched: touchMask(bars, i, e.close, e.atr),
    inside,
  };
}

