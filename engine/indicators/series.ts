import type { Bars } from '../bars.js';
import { atr } from './atr.js';
import { bollinger } from './bollinger.js';
import { ema } from './ema.js';
import { highest, lowest } from './extremes.js';
import { rsi } from './rsi.js';
import { sma } from './sma.js';
import type { IndicatorSpec } from './spec.js';
import { type Anchor, utcDay, vwap } from './vwap.js';

/** One drawn or tested line of an indicator: bb gives three (upper, middle, lower), the others one. */
export interface IndicatorLine {
  /** The spec's text, with .upper/.middle/.lower for a band. */
  name: string;
  values: Float64Array;
}

/**
 * Computes a spec over bars. Moving averages, bands and RSI read closes; hi reads highs, lo lows; ATR and VWAP
 * read the whole bar. `anchor` names VWAP's session (UTC day unless the market keeps another).
 */
export function indicatorLines(spec: IndicatorSpec, bars: Bars, anchor: Anchor = utcDay): IndicatorLine[] {
  const one = (values: Float64Array): IndicatorLine[] => [{ name: spec.text, values }];
  switch (spec.kind) {
    case 'ema':
      return one(ema(bars.c, spec.n));
    case 'sma':
      return one(sma(bars.c, spec.n));
    case 'rsi':
      return one(rsi(bars.c, spec.n));
    case 'atr':
      return one(atr(bars.h, bars.l, bars.c, spec.n));
    case 'hi':
      return one(highest(bars.h, spec.n));
    case 'lo':
      return one(lowest(bars.l, spec.n));
    case 'vwap':
      return one(vwap(bars.t, bars.h, bars.l, bars.c, bars.v, anchor));
    case 'bb': {
      const b = bollinger(bars.c, spec.n, spec.k);
      return [
        { name: `${spec.text}.upper`, values: b.upper },
        { name: `${spec.text}.middle`, values: b.middle },
        { name: `${spec.text}.lower`, values: b.lower },
      ];
    }
  }
}

/**
 * Bars of history a spec needs before a window for its first value there to be settled: how far before a window to
 * read. A window over the look-back (SMA, bands, hi, lo) is exact after its N bars; a recursive smoother remembers
 * its seed, so it is read until the seed weighs under 1/10,000 in the first value: 5 look-backs for an EMA
 * ((1 - 2/(N+1))^5N is under e^-10, about 4.6e-5) and 10 for Wilder's ATR and RSI ((1 - 1/N)^10N, likewise). VWAP
 * starts at its trading day instead (0 here).
 */
export const warmUpBars = (spec: IndicatorSpec): number =>
  spec.kind === 'vwap' ? 0 : spec.kind === 'ema' ? 5 * spec.n : spec.kind === 'atr' || spec.kind === 'rsi' ? 10 * spec.n : spec.n;
