import type { Market } from '../markets.js';

/** The side of an order: buy adds to a long (or takes back a short), sell the other way. */
export const SIDES = ['buy', 'sell'] as const;
export type Side = (typeof SIDES)[number];

/** A market order fills at the next bar's open; a limit order when a later bar trades through its price. */
export const ORDER_TYPES = ['market', 'limit'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

export const dirOf = (side: Side): 1 | -1 => (side === 'buy' ? 1 : -1);
export const sideOf = (dir: number): Side => (dir > 0 ? 'buy' : 'sell');

/**
 * What an order asks for. `price` is the limit (null for a market order). `stop` and `target` are the bracket of
 * the position the order opens or adds to: a protective stop and a resting target, both kept by the venue.
 */
export interface OrderSpec {
  market: Market;
  side: Side;
  size: number;
  type: OrderType;
  price: number | null;
  stop: number | null;
  target: number | null;
}

/** An order the book is working: placed at `placed_at` (unix seconds), eligible for every bar opening at or after it. */
export interface WorkingOrder extends OrderSpec {
  id: string;
  placed_at: number;
}

/** Why a fill happened: the order's own type, or the position's bracket (stop or target). */
export const FILL_WHY = ['market', 'limit', 'stop', 'target'] as const;
export type FillWhy = (typeof FILL_WHY)[number];

/**
 * One fill as the fill rules print it. `t` is the open time of the bar it filled in; `price` is after slippage, on
 * the tick grid; `fee` is the fee of one side for one unit, in price units (points, or dollars a coin). `stop` and
 * `target` are the bracket the order carried (null on a bracket's own fill).
 */
export interface Fill {
  id: string;
  order_id: string | null;
  t: number;
  market: Market;
  side: Side;
  size: number;
  price: number;
  fee: number;
  why: FillWhy;
  stop: number | null;
  target: number | null;
}
