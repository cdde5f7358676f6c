import type { Bars } from '../bars.js';
import { closeDistances, touchMask } from './after.js';
import { ATR_WINDOW, windowAtr } from './atr-window.js';
import {
  ENVELOPE_VERSION,
  HORIZON,
  TOUCHES,
  TOUCH_ATR,
  TOUCH_WITHIN,
  placesOf,
  roundPrice,
  roundTo,
  roundUnit,
  type BandStep,
  type Envelope,
  type Pair,
} from './envelope.js';
import { COLUMNS, TrailingSample } from './sample.js';
import type { Scorable } from './score.js';

/** Read once: the per-bar loops would otherwise go through the module binding on every use. */
const H = HORIZON;
const T = TOUCHES;
const WITHINS = TOUCH_WITHIN.length;
const WITHIN_BARS = Int32Array.from(TOUCH_WITHIN);

export const MODEL = 'excursion-quantile';
export const MODEL_REV = '2';
/** The revision of the first stage alone (recalibration 0): the trailing sample's numbers as they stand. */
export const FIRST_STAGE_REV = '1';
export const DEVICE = 'cpu';

export interface ForecastOptions {
  /** Past bars in the trailing sample (N). */
  sample: number;
  /** The band's nominal coverage: each step's half-width is this quantile of past close distances. */
  nominal: number;
  /** Fewer past bars than this in the sample and nothing is issued. */
  minSamples: number;
  /** The share of the regime slope learned from the sample that the recalibration applies, in [0, 1]; 0: none. */
  recalibration: number;
}

export const DEFAULT_OPTIONS: Readonly<ForecastOptions> = { sample: 2000, nominal: 0.8, minSamples: 200, recalibration: 0.25 };

/** Bars an envelope reads at the least, ending at the last closed bar: pass at least this many for full samples. */
export const lookbackBars = (o: ForecastOptions = DEFAULT_OPTIONS): number => o.sample + H + ATR_WINDOW - 1;

/** The numbers an envelope states, as the walk keeps them: ends and ATR units per step k − 1, odds per touch. */
export interface Issued extends Scorable {
  samples: number;
  /** Half-width in ATR units per step. */
  half: Float64Array;
  lower: Float64Array;
  upper: Float64Array;
  odds: Float64Array;
}

/** Why nothing can be issued at t: too little history before it, or no range at all (an ATR of zero). */
export type Unissuable = 'warming_up' | 'flat';

export class ForecastError extends Error {
  constructor(
    readonly reason: Unissuable,
    message: string,
  ) {
    super(message);
    this.name = 'ForecastError';
  }
}

/** Index of the last bar closed by t (its open time plus the bar length is at or before t), -1 when none. */
export function lastClosedBar(bars: Bars, tfSeconds: number, t: number): number {
  let lo = 0;
  let hi = bars.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (bars.t[mid]! + tfSeconds <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

function checkOptions(o: ForecastOptions): void {
  if (!(Number.isInteger(o.minSamples) && o.minSamples >= 1 && Number.isInteger(o.sample) && o.sample >= o.minSamples)) {
    throw new RangeError(`forecast: need whole numbers 1 <= minSamples <= sample, got ${o.minSamples} and ${o.sample}`);
  }
  if (!(o.nominal > 0 && o.nominal < 1)) throw new RangeError(`forecast: nominal coverage must lie in (0, 1), got ${o.nominal}`);
  if (!(o.recalibration >= 0 && o.recalibration <= 1)) throw new RangeError(`forecast: recalibration must lie in [0, 1], got ${o.recalibration}`);
}

/** The regime's exponent at band step k: the touch horizons' own at 6, 12 and 24 bars, straight lines between. */
function exponentAt(k: number, at: Float64Array): number {
  if (k <= WITHIN_BARS[0]!) return at[0]!;
  for (let w = 1; w < WITHINS; w++) {
    const hi = WITHIN_BARS[w]!;
    if (k <= hi) {
      const lo = WITHIN_BARS[w - 1]!;
      return at[w - 1]! + ((k - lo) / (hi - lo)) * (at[w]! - at[w - 1]!);
    }
  }
  return at[WITHINS - 1]!;
}

/**
 * Issues envelopes over one market's bars. The trailing sample at bar i is the last N bars j <= i − 24 with an
 * ATR (so the 24 bars after each of them had closed by bar i's close): nothing at or after bar i + 1 is read.
 * `fill(i)` builds the sample for bar i; `step(i)` moves a sample built for bar i − 1 on to bar i.
 */
export class Issuer {
  private readonly sample: TrailingSample;
  /** One past bar as the sample keeps it: its close distances, then its reach per touch horizon. */
  private readonly values = new Float64Array(COLUMNS);
  private readonly reach = this.values.subarray(H);
  /** The regime's exponent per touch horizon, for the issue at hand. */
  private readonly exponents = new Float64Array(WITHINS);
  private readonly issued: Issued = {
    issued_t: 0,
    close: 0,
    atr: 0,
    samples: 0,
    half: new Float64Array(H),
    lower: new Float64Array(H),
    upper: new Float64Array(H),
    odds: new Float64Array(T),
  };

  constructor(
    private readonly bars: Bars,
    private readonly pair: Pair,
    private readonly options: ForecastOptions = DEFAULT_OPTIONS,
  ) {
    checkOptions(options);
    this.sample = new TrailingSample(options.sample);
  }

  /** Fills an empty sample for bar i, oldest first, so the ring buffer drops the right one when the walk moves on. */
  fill(i: number): void {
    const picked: number[] = [];
    const atrs: number[] = [];
    for (let j = i - H; j >= ATR_WINDOW - 1 && picked.length < this.options.sample; j--) {
      const a = windowAtr(this.bars, j);
      if (a > 0) {
        picked.push(j);
        atrs.push(a);
      }
    }
    for (let p = picked.length - 1; p >= 0; p--) this.push(picked[p]!, atrs[p]!);
  }

  /** Moves the sample from bar i − 1 to bar i: bar i − 24 has just had its 24 bars close. */
  step(i: number): void {
    const j = i - H;
    if (j >= ATR_WINDOW - 1) this.push(j, windowAtr(this.bars, j));
  }

  /**
   * The numbers of the envelope at bar i (the sample must be built for i), in arrays the next call overwrites.
   * Throws ForecastError when bar i has too little history or no range.
   */
  numbersAt(i: number, issuedT: number): Issued {
    const raw = i >= 0 ? windowAtr(this.bars, i) : NaN;
    if (Number.isNaN(raw) || this.sample.size < this.options.minSamples) {
      throw new ForecastError(
        'warming_up',
        `a ${this.pair.tf} forecast needs at least ${this.options.minSamples + H + ATR_WINDOW - 1} closed bars before it; ${i + 1} had closed`,
      );
    }
    if (!(raw > 0)) throw new ForecastError('flat', `the ${this.pair.tf} bars before ${issuedT} have no range (ATR is zero)`);
    const atr = roundPrice(raw);
    const n = this.issued;
    const close = this.bars.c[i]!;
    n.issued_t = issuedT;
    n.close = close;
    n.atr = atr;
    n.samples = this.sample.size;
    const places = placesOf(close);
    const share = this.options.recalibration;
    // z: how far today's ATR sits from the sample's, in ln units (0 when the recalibration is off).
    const z = share > 0 ? this.regimeExponents(share, raw / close) : 0;
    for (let k = 0; k < H; k++) {
      const q = this.sample.quantile(k + 1, this.options.nominal);
      const w = roundUnit(share > 0 ? q * Math.exp(-exponentAt(k + 1, this.exponents) * z) : q);
      n.half[k] = w;
      n.lower[k] = roundTo(close - w * atr, places);
      n.upper[k] = roundTo(close + w * atr, places);
    }
    for (let b = 0; b < T; b++) {
      const w = b % WITHINS;
      if (share === 0) {
        n.odds[b] = roundUnit(this.sample.odds(b));
        continue;
      }
      const odds = roundUnit(this.sample.beyond(w, TOUCH_ATR[Math.floor(b / WITHINS)]! * Math.exp(this.exponents[w]! * z)));
      // A touch within 12 bars is one within 6 or later: each horizon's exponent is its own, so keep the odds coherent.
      n.odds[b] = w > 0 ? Math.max(odds, n.odds[b - 1]!) : odds;
    }
    return n;
  }

  /**
   * The recalibration, learned from the sample (past bars whose 24 following bars had closed by the issue, so only
   * outcomes known by then). Moves measured in an ATR that sat low for its time ran farther in it, and moves
   * measured in a high one ran shorter: across the sample ln reach falls with ln(ATR / close), by a slope per
   * horizon. The ATR is taken as a share of the close so that a sample spanning a rally or a crash compares
   * volatility, not price. Today's sits z = ln(ATR / close) − (the sample's mean of it) from the sample's level,
   * and the moves ahead are read as the sample's scaled by e^(−β·z), β = −slope · share, held to [0, 1] (0: the ATR
   * of the moment is the whole story; 1: it tells nothing beyond the sample's level). Writes β per horizon to
   * `exponents` and answers z.
   */
  private regimeExponents(share: number, relative: number): number {
    const { level, slopes } = this.sample.regime();
    for (let w = 0; w < WITHINS; w++) this.exponents[w] = Math.min(1, Math.max(0, -slopes[w]! * share));
    return Math.log(relative) - level;
  }

  /** The envelope at bar i, issued at `issuedT`: numbersAt dressed as envelope.v1. */
  envelopeAt(i: number, issuedT: number): Envelope {
    const n = this.numbersAt(i, issuedT);
    const steps: BandStep[] = Array.from(n.half, (w, k) => ({
      k: k + 1,
      lower: n.lower[k]!,
      upper: n.upper[k]!,
      lower_atr: w === 0 ? 0 : -w,
      upper_atr: w,
    }));
    const touch = Array.from(n.odds, (odds, b) => ({ atr: TOUCH_ATR[Math.floor(b / WITHINS)]!, within: TOUCH_WITHIN[b % WITHINS]!, odds }));
    return {
      version: ENVELOPE_VERSION,
      market: this.pair.market,
      tf: this.pair.tf,
      issued_t: issuedT,
      last_bar_t: this.bars.t[i]!,
      close: n.close,
      atr: n.atr,
      band: { nominal: this.options.nominal, steps },
      touch,
      model: MODEL,
      model_rev: this.options.recalibration > 0 ? MODEL_REV : FIRST_STAGE_REV,
      device: DEVICE,
      samples: n.samples,
    };
  }

  /** Adds past bar j, measured in its own ATR `a`; a bar with no range (a = 0) has no distances to give. */
  private push(j: number, a: number): void {
    if (!(a > 0)) return;
    const close = this.bars.c[j]!;
    closeDistances(this.bars, j, close, a, this.values);
    const mask = touchMask(this.bars, j, close, a, this.reach);
    this.sample.push(this.values, mask, a / close);
  }
}
