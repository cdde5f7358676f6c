import { WHY } from '../decider/contract.js';
import { MARKET_SPECS, type Market } from '../markets.js';
import type { Costs } from '../stepper/costs.js';
import { round4 } from '../stepper/stats.js';

/**
 * What the rule's trades paid, and what they could pay before their edge is gone. Each trade paid its fees on both
 * sides and its slippage on the entry and on the exit (none on a target, a resting limit order); in R that is the
 * cost over the trade's risk (entry fill to initial stop), so its R before costs is its R plus that. The break-even
 * cost is the one cost per round trip, in price, that takes the total R to zero: Σ gross R / Σ (1 / risk). A rule
 * whose trades lose before any cost has no break-even cost: its edge was never there.
 */

export interface CostTrade {
  dir: number;
  entry: number;
  /** The initial stop. */
  stop: number;
  exit: number;
  r: number;
  why: number;
}

export interface CostReport {
  market: Market;
  fee: Costs['fee'];
  slippage_ticks: number;
  /** The mean cost of a round trip over the trades: in price, in dollars on one contract or coin, in R. */
  per_trade: { price: number; dollars: number; r: number } | null;
  expectancy_r: { before_costs: number; after_costs: number } | null;
  /** The cost per round trip at which the total R is zero, and how many times today's mean cost that is; null without an edge before costs. */
  break_even: { price: number; dollars: number; ticks: number; r: number; times_current: number | null } | null;
}

export function costsOf(trades: readonly CostTrade[], market: Market, costs: Costs, slippage: number): CostReport {
  const spec = MARKET_SPECS[market];
  const fixed = costs.fee.unit === 'points' ? costs.fee.per_side : 0;
  const rate = costs.fee.unit === 'bps' ? costs.fee.per_side / 10_000 : 0;
  const base = { market, fee: costs.fee, slippage_ticks: costs.slippage_ticks };
  const n = trades.length;
  if (n === 0) return { ...base, per_trade: null, expectancy_r: null, break_even: null };
  let price = 0;
  let costR = 0;
  let gross = 0;
  let net = 0;
  let perRisk = 0;
  for (const x of trades) {
    const risk = Math.abs(x.entry - x.stop);
    const paid = 2 * fixed + (x.entry + x.exit) * rate + slippage * (x.why === WHY.target ? 1 : 2);
    price += paid;
    costR += paid / risk;
    gross += x.r + paid / risk;
    net += x.r;
    perRisk += 1 / risk;
  }
  const meanPrice = price / n;
  const even = gross / perRisk;
  return {
    ...base,
    per_trade: { price: round4(meanPrice), dollars: round4(meanPrice * spec.point_value), r: round4(costR / n) },
    expectancy_r: { before_costs: round4(gross / n), after_costs: round4(net / n) },
    break_even:
      gross > 0
        ? { price: round4(even), dollars: round4(even * spec.point_value), ticks: round4(even / spec.tick), r: round4(gross / n), times_current: meanPrice > 0 ? round4(even / meanPrice) : null }
        : null,
  };
}
