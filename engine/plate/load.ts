import { expectedBars, warmStart } from '../calendar.js';
import { tradingDay } from '../decider/series.js';
import { warmUpBars, type Anchor, type IndicatorSpec } from '../indicators/index.js';
import { MARKET_SPECS, TIMEFRAME_SECONDS, type Market, type Timeframe } from '../markets.js';

/**
 * VWAP's session on a plate: the market's trading day, the one a rule's VWAP reads too. 00:00 UTC for crypto;
 * 17:00 Chicago (the CME session's open) for NQ, ES and YM.
 */
export const vwapAnchor = (market: Market): Anchor => tradingDay(MARKET_SPECS[market].kind === 'cme' ? 'cme' : 'utc');

/** A trading day is shorter than this: how far back the start of the one holding a bar is looked for. */
const LONGEST_DAY = 2 * 86_400;

/** The open time of the first bar slot of the trading day that holds the bar slot of t. */
export function dayStart(anchor: Anchor, t: number, len: number): number {
  const slot = Math.floor(t / len);
  const day = anchor(slot * len);
  // The anchor's key never falls as time goes on: the first slot of the day is found by halving.
  let lo = Math.floor((slot * len - LONGEST_DAY) / len);
  let hi = slot;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (anchor(mid * len) < day) lo = mid + 1;
    else hi = mid;
  }
  return lo * len;
}

/**
 * Where to start reading bars for a plate of the window starting at `from`: far enough back that every indicator
 * has its warm-up (warmUpBars: several look-backs for a recursive one) of trading before the window (a CME halt holds
 * no bars) and, when VWAP is asked, that the window's first trading day is read from its start. What else is on the
 * plate then moves no line: the plate computes each indicator over its own warm-up only, and VWAP restarts at each
 * trading day.
 */
export function plateLoadFrom(market: Market, tf: Timeframe, from: number, indicators: readonly IndicatorSpec[]): number {
  const len = TIMEFRAME_SECONDS[tf];
  const warm = warmStart(market, from, Math.max(0, ...indicators.map(warmUpBars)) * len, len);
  return indicators.some((s) => s.kind === 'vwap') ? Math.min(warm, dayStart(vwapAnchor(market), from, len)) : warm;
}

/** A market that prints a bar in fewer than one slot in this many is read back no further for the rest. */
const SPARSEST = 16;

/**
 * Where to read a plate's bars from again when those read from `start` hold fewer bars before `from` than the
 * longest warm-up wants (`before` of them): a market whose quiet stretches print no bar holds fewer bars than its
 * time. Back by the bars still wanted, at the share of its slots the stretch read printed, never before `earliest`
 * (what one read of the tape may span). Null when the bars are enough, or when no read could reach further back.
 */
export function furtherBack(market: Market, tf: Timeframe, from: number, start: number, before: number, indicators: readonly IndicatorSpec[], earliest: number): number | null {
  const len = TIMEFRAME_SECONDS[tf];
  const short = Math.max(0, ...indicators.map(warmUpBars)) - before;
  if (short <= 0 || start <= earliest) return null;
  const share = Math.max(before / Math.max(1, expectedBars(market, len, start, from).length), 1 / SPARSEST);
  return Math.max(earliest, warmStart(market, start, Math.ceil(short / share) * len, len));
}
