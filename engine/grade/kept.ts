import { barAt, type Bars } from '../bars.js';
import type { Market, Timeframe } from '../markets.js';
import type { Costs } from '../stepper/costs.js';
import type { Rehearsal, Trade } from '../stepper/envelope.js';

/** A rehearsed trade with the open of the bar it left in: the witness of a stop filled at a gapped open. */
export interface KeptTrade extends Trade {
  /** The open of the bar opening at exit_t, or null when the window holds no such bar. */
  exit_open: number | null;
}

/** What grading reads of a principal's last rehearsal of a seed: where it ran, its costs and its trades. */
export interface KeptRehearsal {
  /** The seed hash. */
  id: string;
  market: Market;
  timeframe: Timeframe;
  window: Rehearsal['window'];
  costs: Costs & { slippage: number };
  trades: KeptTrade[];
}

/** The rehearsal as grading keeps it, each trade with the open of its exit bar read from the bars it ran over. */
export function keptOf(seed: string, r: Rehearsal, bars: Bars): KeptRehearsal {
  return {
    id: seed,
    market: r.market,
    timeframe: r.timeframe,
    window: r.window,
    costs: r.costs,
    trades: r.trades.map((trade) => {
      const i = barAt(bars.t, trade.exit_t);
      return { ...trade, exit_open: i >= 0 ? bars.o[i]! : null };
    }),
  };
}
