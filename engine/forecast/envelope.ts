import { z } from 'zod';
import { MARKETS, type Market } from '../markets.js';

/**
 * envelope.v1: what a forecaster issues at time t for one market and timeframe. It states magnitude only: a band
 * symmetric about the last close for each of the next 24 bars, and the odds that price touches close ± x·ATR
 * (either way) within 6, 12 and 24 bars. There is no side, no median and no drift anywhere in it.
 * Measured calibration is not part of what a forecaster issues: the deck scores envelopes against the bars that
 * followed, so a forecaster never grades itself (the strict schema refuses a `calibration` it might send).
 */

export const ENVELOPE_VERSION = 'envelope.v1';

/** Bars the band reaches ahead. */
export const HORIZON = 24;
/** Touch sizes in ATR, and the horizons (in bars) the odds are stated for. */
export const TOUCH_ATR = [0.5, 1, 2] as const;
export const TOUCH_WITHIN = [6, 12, 24] as const;
/** Nine touch odds, size-major: index = size index · 3 + horizon index. */
export const TOUCHES = TOUCH_ATR.length * TOUCH_WITHIN.length;

export const FORECAST_TIMEFRAMES = ['5m', '1h'] as const;
export type ForecastTimeframe = (typeof FORECAST_TIMEFRAMES)[number];

/** A market and timeframe the forecaster serves: the unit that is issued, scored and drawn. */
export interface Pair {
  market: Market;
  tf: ForecastTimeframe;
}

const Price = z.number().positive().finite();
const Unit = z.number().nonnegative().finite();

/** One step of the band: k bars ahead, both ends in price and in ATR units from the last close. */
const Step = z.strictObject({
  k: z.number().int().min(1).max(HORIZON),
  lower: Price,
  upper: Price,
  lower_atr: z.number().nonpositive().finite(),
  upper_atr: Unit,
});

const Touch = z.strictObject({
  atr: z.number().positive(),
  within: z.number().int().positive(),
  odds: z.number().min(0).max(1),
});

/** Two numbers agree to within a part in 10^8 of the scale: room for rounding each end to ten digits, no more. */
const near = (a: number, b: number, scale: number): boolean => Math.abs(a - b) <= 1e-8 * scale;

export const EnvelopeSchema = z
  .strictObject({
    version: z.literal(ENVELOPE_VERSION),
    market: z.enum(MARKETS),
    tf: z.enum(FORECAST_TIMEFRAMES),
    /** When it was issued, unix seconds. */
    issued_t: z.number().int(),
    /** Open time of the last closed bar it read: nothing after that bar's close went into it. */
    last_bar_t: z.number().int(),
    /** The last close: the band's centre. */
    close: Price,
    /** The ATR the band and the touch sizes are measured in, price units. */
    atr: Price,
    band: z.strictObject({
      /** The share of closes each step's band is built to hold (its nominal coverage). */
      nominal: z.number().gt(0).lt(1),
      steps: z.array(Step).length(HORIZON),
    }),
    touch: z.array(Touch).length(TOUCHES),
    model: z.string().min(1).max(64),
    model_rev: z.string().min(1).max(64),
    device: z.string().min(1).max(32),
    /** How many past forecasts-and-outcomes the odds and the band were taken from. */
    samples: z.number().int().nonnegative(),
  })
  .superRefine((e, ctx) => {
    if (e.last_bar_t >= e.issued_t) ctx.addIssue({ code: 'custom', path: ['last_bar_t'], message: 'the last bar read must open before the issue time' });
    e.band.steps.forEach((s, i) => {
      if (s.k !== i + 1) ctx.addIssue({ code: 'custom', path: ['band', 'steps', i, 'k'], message: `step ${i} must be k = ${i + 1}` });
      // Symmetric about the close, in price and in ATR: an off-centre band would be a direction.
      if (!near(s.upper - e.close, e.close - s.lower, e.close) || !near(s.upper_atr, -s.lower_atr, 1)) {
        ctx.addIssue({ code: 'custom', path: ['band', 'steps', i], message: 'the band must be symmetric about the last close' });
      }
      if (!near(s.upper - e.close, s.upper_atr * e.atr, e.close)) {
        ctx.addIssue({ code: 'custom', path: ['band', 'steps', i], message: 'the price ends must be the ATR ends times atr' });
      }
    });
    e.touch.forEach((t, i) => {
      const atr = TOUCH_ATR[Math.floor(i / TOUCH_WITHIN.length)];
      const within = TOUCH_WITHIN[i % TOUCH_WITHIN.length];
      if (t.atr !== atr || t.within !== within) {
        ctx.addIssue({ code: 'custom', path: ['touch', i], message: `touch ${i} must be the odds of ${atr} ATR within ${within} bars` });
      }
    });
  });

export type Envelope = z.infer<typeof EnvelopeSchema>;
export type BandStep = Envelope['band']['steps'][number];

/** One issue in a history answer: when, how wide at step 24 (in ATR, end to end) and the two ends in price. */
export interface CompactIssue {
  issued_t: number;
  width_atr: number;
  lower: number;
  upper: number;
}

export function compactOf(e: Envelope): CompactIssue {
  const last = e.band.steps[HORIZON - 1]!;
  return compact(e.issued_t, last.upper_atr, last.lower, last.upper);
}

/** The compact issue from the last step's half-width in ATR and its two ends. */
export const compact = (issued_t: number, half: number, lower: number, upper: number): CompactIssue => ({
  issued_t,
  width_atr: roundUnit(2 * half),
  lower,
  upper,
});

/**
 * Prices keep ten significant digits of the close (both ends of a step at the same decimal places) and ATR units
 * and odds four decimals: readable, and the same bytes every time. Rounding is integer arithmetic over an exact
 * power of ten, as a string round trip costs twenty times more and the walk rounds fifty numbers per issue.
 */
export const placesOf = (x: number): number => 9 - Math.floor(Math.log10(x));

const POW10 = Array.from({ length: 23 }, (_, p) => 10 ** p);

/** x rounded to `places` decimals (negative places round to tens, hundreds, …). */
export function roundTo(x: number, places: number): number {
  if (places < 0) {
    const unit = POW10[-places] ?? 10 ** -places;
    return Math.round(x / unit) * unit;
  }
  const scale = POW10[places] ?? 10 ** places;
  return Math.round(x * scale) / scale;
}

export const roundPrice = (x: number): number => roundTo(x, placesOf(x));
export const roundUnit = (x: number): number => Math.round(x * 1e4) / 1e4;
