import { z } from 'zod';
import { MARKET_SPECS, MARKETS, type Market } from '../markets.js';
import { round4 } from '../stepper/stats.js';
import { onStep } from './contracts.js';
import { dirOf, FILL_WHY, type Fill } from './order.js';

/** Part of a position, opened by one fill and closed first in, first out. */
export interface Lot {
  fill: string;
  t: number;
  price: number;
  /** What is left of it open. */
  size: number;
  /** The entry's fee of one side for one unit. */
  fee: number;
  /** The stop the entry carried: entry to stop is its 1R (null: no R). */
  stop: number | null;
}

/** A net position on one market's book, with the bracket the venue keeps for it. */
export interface Position {
  market: Market;
  dir: -1 | 0 | 1;
  size: number;
  lots: Lot[];
  stop: number | null;
  target: number | null;
}

/**
 * An entry paired with the fill that closes it (a part of each, when sizes differ). pnl_usd is after both sides'
 * fees; r is the same in units of the entry's risk (entry to its stop), null when the entry carried no stop.
 */
export const PairedTradeSchema = z.strictObject({
  market: z.enum(MARKETS),
  side: z.enum(['long', 'short']),
  size: z.number(),
  entry_fill: z.string(),
  entry_t: z.number().int(),
  entry: z.number(),
  stop: z.number().nullable(),
  exit_fill: z.string(),
  exit_t: z.number().int(),
  exit: z.number(),
  why: z.enum(FILL_WHY).describe('how the exit filled'),
  fees: z.number().describe("both sides' fees for one unit, in price units"),
  pnl_usd: z.number().describe('after fees'),
  r: z.number().nullable().describe("in units of the entry's risk; null when the entry carried no stop"),
});
export type PairedTrade = z.infer<typeof PairedTradeSchema>;

export const flatPosition = (market: Market): Position => ({ market, dir: 0, size: 0, lots: [], stop: null, target: null });

/**
 * The size-weighted entry price of what is open (null when flat), to twelve significant digits: price times size over
 * size is not the price in binary floating point (6850.23 x 0.01 / 0.01 is 6850.229999999999), and the digits past
 * the twelfth are that error, never the average's.
 */
export function averageEntry(p: Position): number | null {
  if (p.size === 0) return null;
  let sum = 0;
  for (const lot of p.lots) sum += lot.price * lot.size;
  return Number((sum / p.size).toPrecision(12));
}

function paired(p: Position, lot: Lot, fill: Fill, size: number): PairedTrade {
  const dir = p.dir;
  const fees = lot.fee + fill.fee;
  const perUnit = dir * (fill.price - lot.price) - fees;
  const risk = lot.stop === null ? 0 : dir * (lot.price - lot.stop);
  return {
    market: p.market,
    side: dir > 0 ? 'long' : 'short',
    size,
    entry_fill: lot.fill,
    entry_t: lot.t,
    entry: lot.price,
    stop: lot.stop,
    exit_fill: fill.id,
    exit_t: fill.t,
    exit: fill.price,
    why: fill.why,
    fees: round4(fees),
    pnl_usd: round4(perUnit * size * MARKET_SPECS[p.market].point_value),
    r: risk > 0 ? round4(perUnit / risk) : null,
  };
}

/**
 * Applies one fill to the position (in place): a fill on the position's side (or on a flat book) opens a lot and
 * sets the bracket it carries; a fill against it closes lots first in, first out, each part a paired trade, and
 * what is left of the fill opens the other way. A flat position has no bracket. Answers the trades it closed.
 */
export function applyFill(p: Position, fill: Fill): PairedTrade[] {
  const d = dirOf(fill.side);
  const closed: PairedTrade[] = [];
  let left = fill.size;
  if (p.dir === -d) {
    while (left > 0 && p.lots.length > 0) {
      const lot = p.lots[0]!;
      const part = Math.min(lot.size, left);
      closed.push(paired(p, lot, fill, part));
      lot.size = onStep(p.market, lot.size - part);
      left = onStep(p.market, left - part);
      p.size = onStep(p.market, p.size - part);
      if (lot.size <= 0) p.lots.shift();
    }
    if (p.size <= 0) {
      p.dir = 0;
      p.size = 0;
      p.lots = [];
      p.stop = null;
      p.target = null;
    }
  }
  if (left > 0) {
    p.dir = d;
    p.lots.push({ fill: fill.id, t: fill.t, price: fill.price, size: left, fee: fill.fee, stop: fill.stop });
    p.size = onStep(p.market, p.size + left);
    if (fill.stop !== null) p.stop = fill.stop;
    if (fill.target !== null) p.target = fill.target;
  }
  return closed;
}
