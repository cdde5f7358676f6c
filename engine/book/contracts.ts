import { MARKET_SPECS, type Market } from '../markets.js';

/**
 * What one unit of size is on each market's book. Futures trade whole contracts, worth the market's point value a
 * point (MARKET_SPECS: NQ $20, ES $50, YM $5); crypto trades coins (USDT spot), a dollar a point a coin, in steps of
 * the spot books' usual lot (0.0001 BTC, 0.001 ETH, 0.01 SOL).
 */
export interface Contract {
  size_step: number;
}

export const CONTRACTS: Readonly<Record<Market, Contract>> = {
  NQ: { size_step: 1 },
  ES: { size_step: 1 },
  YM: { size_step: 1 },
  BTC: { size_step: 0.0001 },
  ETH: { size_step: 0.001 },
  SOL: { size_step: 0.01 },
};

/** Snaps x to the grid of `step` (a power of ten or a whole number): the nearest double to the decimal amount. */
const snap = (x: number, step: number): number => {
  const inv = Math.round(1 / step);
  return inv >= 1 && step < 1 ? Math.round(x * inv) / inv : Math.round(x / step) * step;
};

/** A price on the market's tick grid. */
export const onTick = (market: Market, price: number): number => snap(price, MARKET_SPECS[market].tick);

/** A size on the market's size grid (sums of steps drift in binary; this puts them back). */
export const onStep = (market: Market, size: number): number => snap(size, CONTRACTS[market].size_step);

/** A size rounded down to the size grid (a scaled or capped size never grows past what it scaled). */
export function stepDown(market: Market, size: number): number {
  const step = CONTRACTS[market].size_step;
  const snapped = onStep(market, size);
  return snapped <= size ? snapped : onStep(market, snapped - step);
}

/** True when x lies on the grid of `step` (within binary rounding). */
const onGrid = (x: number, step: number): boolean => Math.abs(snap(x, step) - x) <= step * 1e-9;

export const isOnTick = (market: Market, price: number): boolean => onGrid(price, MARKET_SPECS[market].tick);
export const isOnStep = (market: Market, size: number): boolean => onGrid(size, CONTRACTS[market].size_step);

/** Dollars of one order or position: size x price x dollars a point. */
export const notionalOf = (market: Market, size: number, price: number): number => size * price * MARKET_SPECS[market].point_value;
