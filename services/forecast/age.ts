import { expectedBars } from '../../engine/calendar.js';
import type { Pair } from '../../engine/forecast/index.js';
import { MARKET_SPECS, TIMEFRAME_SECONDS } from '../../engine/markets.js';

/**
 * How many of the pair's bars closed after an envelope was issued and by t (0: it was issued at the close of the
 * last bar). The deck issues on demand and has no timer, so an envelope disclosed at t may be older than the last
 * bar; a CME market's halts print no bars, so a weekend does not age it.
 */
export function ageBars(pair: Pair, issuedT: number, t: number): number {
  const len = TIMEFRAME_SECONDS[pair.tf];
  const first = Math.ceil(issuedT / len) * len;
  if (first + len > t) return 0;
  if (MARKET_SPECS[pair.market].kind === 'crypto') return Math.floor((t - len - first) / len) + 1;
  return expectedBars(pair.market, len, first, t - len + 1).length;
}
