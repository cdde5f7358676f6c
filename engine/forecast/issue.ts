import type { Bars } from '../bars.js';
import { TIMEFRAME_SECONDS } from '../markets.js';
import type { Envelope, Pair } from './envelope.js';
import { DEFAULT_OPTIONS, Issuer, lastClosedBar, type ForecastOptions } from './issuer.js';

/**
 * The envelope issued at time t (unix seconds; a fraction is dropped) from the bars closed by t. `bars` are the
 * pair's timeframe, sorted by open time; passing lookbackBars() of them up to t gives the same bytes as all. The bars after the last one closed by
 * t are cut off before anything reads them, so nothing later can move it. Throws ForecastError when there is too
 * little history before t ('warming_up') or the last bars have no range ('flat').
 */
export function issueEnvelope(bars: Bars, pair: Pair, t: number, options: ForecastOptions = DEFAULT_OPTIONS): Envelope {
  const i = lastClosedBar(bars, TIMEFRAME_SECONDS[pair.tf], t);
  const issuer = new Issuer(closedBars(bars, i + 1), pair, options);
  issuer.fill(i);
  return issuer.envelopeAt(i, Math.floor(t));
}

/** The first n bars as views: no copy, and no way to read past them. */
const closedBars = (b: Bars, n: number): Bars => ({
  length: n,
  t: b.t.subarray(0, n),
  o: b.o.subarray(0, n),
  h: b.h.subarray(0, n),
  l: b.l.subarray(0, n),
  c: b.c.subarray(0, n),
  v: b.v.subarray(0, n),
});
