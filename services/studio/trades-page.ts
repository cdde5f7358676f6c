import type { Trade } from '../../engine/stepper/index.js';
import { int } from '../schemas.js';

/** Trades a model is shown at first over MCP: the statistics, the null and the summary come whole. */
export const MCP_TRADES = 50;

/** The arguments that page an envelope's trades (absent: every trade, as REST answers). */
export const TradesPage = {
  trades_from: int.refine((n) => n >= 0, 'at least 0').optional().describe('the first trade to show, counted from 0'),
  trades_limit: int
    .refine((n) => n >= 1, 'at least 1')
    .optional()
    .describe(`at most this many trades from trades_from (over MCP ${MCP_TRADES} unless told); the same call from trades_page.next reads on, rehearsing the same envelope again`),
};

export const TRADES_MCP_DEFAULTS = { trades_limit: MCP_TRADES };

/**
 * An envelope with a page of its trades and where the next page starts; the envelope unpaged when no page was asked.
 * Its statistics, null and summary are always the whole rehearsal's.
 */
export function pagedTrades<A extends { trades: Trade[] }>(answer: A, page: { trades_from?: number | undefined; trades_limit?: number | undefined }) {
  if (page.trades_from === undefined && page.trades_limit === undefined) return answer;
  const from = page.trades_from ?? 0;
  const to = page.trades_limit === undefined ? answer.trades.length : Math.min(answer.trades.length, from + page.trades_limit);
  const trades = answer.trades.slice(from, to);
  return { ...answer, trades, trades_page: { from, shown: trades.length, total: answer.trades.length, next: to < answer.trades.length ? to : null } };
}
