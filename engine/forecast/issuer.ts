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
import { TrailingSample } from './sample.js';
import type { Scorable } from './score.js';

/** Read once: the per-bar loops would otherwise go through the module binding on every use. */
const H = HORIZON;
const T = TOUCHES;
const WITHINS = TOUCH_WITHIN.length;

export const MODEL = 'excursion-quantile';
export const MODEL_REV = '1';
export const DEVICE = 'cpu';

export interface ForecastOptions {
  /** Past bars in the trailing sample (N). */
  sample: number;
  /** The band's nominal coverage: each step's half-width is this quantile of past close distances. */
  nominal: number;
  /** Fewer past bars than this in the sample and nothing is issued. */
  minSamples: number;
}

export const DEFAULT_OPTIONS: Readonly<ForecastOptions> = { sample: 2000, nominal: 0.8, minSamples: 200 };

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
}

/**
 * Issues envelopes over one market's bars. The trailing sample at bar i is the last N bars j <= i − 24 with an
 * ATR (so the 24 bars after each of them had closed by bar i's close): nothing at or after bar i + 1 is read.
 * `fill(i)` builds the sample for bar i; `step(i)` moves a sample built for bar i − 1 on to bar i.
 */
export class Issuer {
  private readonly sample: TrailingSample;
  private readonly distances = new Float64Array(H);
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
    for (let k = 0; k < H; k++) {
      const w = roundUnit(this.sample.quantile(k + 1, this.options.nominal));
      n.half[k] = w;
      n.lower[k] = roundTo(close - w * atr, places);
      n.upper[k] = roundTo(close + w * atr, places);
    }
    for (let b = 0; b < T; b++) n.odds[b] = roundUnit(this.sample.odds(b));
    return n;
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
      model_rev: MODEL_REV,
      device: DEVICE,
      samples: n.samples,
    };
  }

  /** Adds past bar j, measured in its own ATR `a`; a bar with no range (a = 0) has no distances to give. */
  private push(j: number, a: number): void {
    if (!(a > 0)) return;
    const close = this.bars.c[j]!;
    closeDistances(this.bars, j, close, a, this.distances);
    this.sample.push(this.distances, touchMask(this.bars, j, close, a));
  }
}
