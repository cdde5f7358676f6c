import type { Bars } from '../../engine/bars.js';
import { expectedBars } from '../../engine/calendar.js';
import type { Pair } from '../../engine/forecast/index.js';
import { knownWhole, type Tape } from '../tape/tape.js';

/**
 * The bars of a pair in [from, to) through the deck's tape, whole bars only: from the archive when it knows every
 * open-market bar of the window (kept or known absent), else from the venue (whose answer the archive keeps, first
 * seen wins). `fresh` (a replay session) reads the venue as it answers now.
 */
export async function pairBars(tape: Tape, pair: Pair, from: number, to: number, fresh: boolean): Promise<Bars> {
  const { market, tf } = pair;
  return (await tape.window(market, tf, from, to, fresh, knownWhole(market, tf, from, to))).bars;
}

/**
 * Where a window ending at t must start to hold n bars by the market's calendar: n bar lengths on a 24/7 market,
 * more on a CME one, whose weekends and daily breaks print none (each step back adds the bars still missing).
 */
export function lookbackFrom(pair: Pair, len: number, t: number, n: number): number {
  let from = t - n * len;
  for (let have = expectedBars(pair.market, len, from, t).length; have < n; have = expectedBars(pair.market, len, from, t).length) {
    from -= (n - have) * len;
  }
  return from;
}
