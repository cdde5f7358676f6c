import { z } from 'zod';
import { statsOf } from '../stepper/stats.js';
import type { Market } from '../markets.js';
import type { Fill } from './order.js';
import { applyFill, flatPosition, type PairedTrade, type Position } from './position.js';

/**
 * Paired closes: every fill of one book replayed in order over a position per market, each entry paired with the
 * fill that closes it (first in, first out; a part of each when sizes differ). Answers the trades in the order they
 * closed and what is still open.
 */
export function pairedCloses(fills: readonly Fill[]): { trades: PairedTrade[]; open: Position[] } {
  const positions = new Map<Market, Position>();
  const trades: PairedTrade[] = [];
  for (const fill of fills) {
    let p = positions.get(fill.market);
    if (!p) positions.set(fill.market, (p = flatPosition(fill.market)));
    trades.push(...applyFill(p, fill));
  }
  return { trades, open: [...positions.values()].filter((p) => p.dir !== 0) };
}

/** A record's figures, all from its paired closes. */
export const RecordStatsSchema = z.strictObject({
  trades: z.number().int().describe('paired trades closed'),
  wins: z.number().int(),
  losses: z.number().int(),
  win_rate: z.number().nullable().describe('wins / trades (a win made money after fees); null without trades'),
  realized_pnl_usd: z.number(),
  max_drawdown_usd: z.number().describe('the deepest fall of cumulative realized PnL from its running peak (the peak starts at 0), trade by trade'),
  r_trades: z.number().int().describe('the trades whose entry carried a stop, so have an R'),
  realized_r: z.number().describe('the sum of R over those trades'),
  max_drawdown_r: z.number().describe("the deepest fall of that sum from its running peak"),
  expectancy_r: z.number().nullable().describe('mean R per trade with an R; null without one'),
});
export type RecordStats = z.infer<typeof RecordStatsSchema>;

/**
 * A model's record from its paired closes: realized R and its drawdown, realized PnL and its drawdown, the trade
 * count and the win rate. The one function the copy seller's figures and the records ladder read.
 */
export function recordStats(trades: readonly PairedTrade[]): RecordStats {
  const dir = (t: PairedTrade) => (t.side === 'long' ? 1 : -1);
  // The stepper's R statistics serve both series: a trade's R, and its dollars read as if they were R.
  const usd = statsOf(trades.map((t) => ({ dir: dir(t), r: t.pnl_usd })));
  const withR = trades.filter((t) => t.r !== null);
  const r = statsOf(withR.map((t) => ({ dir: dir(t), r: t.r! })));
  return {
    trades: usd.n,
    wins: usd.wins,
    losses: usd.losses,
    win_rate: usd.win_rate,
    realized_pnl_usd: usd.total_r,
    max_drawdown_usd: usd.max_drawdown_r,
    r_trades: r.n,
    realized_r: r.total_r,
    max_drawdown_r: r.max_drawdown_r,
    expectancy_r: r.expectancy,
  };
}

/** A book's record straight from its fills: the ladder's one call. */
export const recordOf = (fills: readonly Fill[]) => {
  const { trades, open } = pairedCloses(fills);
  return { trades, open, stats: recordStats(trades) };
};
