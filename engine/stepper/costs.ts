import { MARKET_SPECS, type Market } from '../markets.js';

/**
 * What a fill costs. Slippage: every market and stop order fills this many ticks worse than its price (entries,
 * stop exits, rule, time and session exits); a target is a resting limit order and fills at its price, no
 * slippage. Fee: paid on each side, in price units (points) for the futures or in basis points of the fill
 * price for crypto.
 */
export interface Costs {
  slippage_ticks: number;
  fee: { per_side: number; unit: 'points' | 'bps' };
}

/**
 * Per-market defaults. Futures: one tick of slippage and about $2 a contract a side (commission and exchange
 * fees): 0.1 point on NQ ($20 a point), 0.04 on ES ($50), 0.4 on YM ($5). Crypto (ticks of 0.01): slippage of
 * $0.50 on BTC, $0.05 on ETH, $0.01 on SOL (near a basis point or less at their prices), and 5 bps a side, a
 * taker fee between the spot and perpetual books.
 */
export const DEFAULT_COSTS: Readonly<Record<Market, Costs>> = {
  NQ: { slippage_ticks: 1, fee: { per_side: 0.1, unit: 'points' } },
  ES: { slippage_ticks: 1, fee: { per_side: 0.04, unit: 'points' } },
  YM: { slippage_ticks: 1, fee: { per_side: 0.4, unit: 'points' } },
  BTC: { slippage_ticks: 50, fee: { per_side: 5, unit: 'bps' } },
  ETH: { slippage_ticks: 5, fee: { per_side: 5, unit: 'bps' } },
  SOL: { slippage_ticks: 1, fee: { per_side: 5, unit: 'bps' } },
};

/** Slippage in price: ticks / (1 / tick), the nearest double to the decimal amount. */
export const slippageOf = (market: Market, costs: Costs): number => costs.slippage_ticks / Math.round(1 / MARKET_SPECS[market].tick);

/** The fee of one side for one unit filled at `price`, in price units (points, or basis points of the price). */
export const feePerSide = (fee: Costs['fee'], price: number): number => (fee.unit === 'points' ? fee.per_side : (price * fee.per_side) / 10_000);
