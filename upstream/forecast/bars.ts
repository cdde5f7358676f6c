import type { Bars } from '../../engine/bars.js';
import { expectedBars } from '../../engine/calendar.js';
import { coverage } from '../../engine/coverage.js';
import type { Pair } from '../../engine/forecast/index.js';
import type { Tape, TapeWindow } from '../tape/tape.js';

/**
 * The bars of a pair in [from, to) through the deck's tape: from the archive when it holds every open-market bar of
 * the window, else from the venue (whose answer the archive keeps, first seen wins). `fresh` (a replay session)
 * reads the venue as it answers now.
 */
export async function pairBars(tape: Tape, pair: Pair, from: number, to: number, fresh: boolean): Promise<Bars> {
  const { market, tf } = pair;
  const whole = (w: TapeWindow) => coverage({ market, tf, from, to, times: w.bars.t, held: [{ from, to }] }).missing.bars === 0;
  return (await tape.window(market, tf, from, to, fresh, whole)).bars;
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
