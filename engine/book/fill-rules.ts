import type { BarRow } from '../bars.js';
import type { Market } from '../markets.js';
import { DEFAULT_COSTS, feePerSide, slippageOf, type Costs } from '../stepper/costs.js';
import { onTick } from './contracts.js';
import { dirOf, sideOf, type Fill, type FillWhy, type WorkingOrder } from './order.js';
import { applyFill, type PairedTrade, type Position } from './position.js';

/**
 * The paper venue's fill rules, bar by bar, from the tape and nothing else. An order is eligible from the first bar
 * that opens at or after it was placed (the bar it was placed in had already opened). Inside a bar, in this order:
 *
 * 1. At the open: market orders fill at the open, slippage against them, in the order placed; a limit order whose
 *    price the open is already through fills at the open (a limit fills at its price or better). Then the
 *    position's bracket: an open at or through the stop fills the stop at the open, slippage against (a gap fills
 *    where the market is, not at the stop); an open through the target fills the target at the open.
 * 2. Inside the range: a limit order fills at its price when the bar trades through it (a buy when the low is
 *    below it, a sell when the high is above it: a touch is not a fill, since orders ahead at that price fill
 *    first). Then the bracket: the stop fills at the stop, slippage against, when the range reaches it; else the
 *    target fills at its price when the range trades through it. The stop is taken first when both lie in the
 *    range (the bar's path is unknown, so the worse one is assumed), and a position a limit opened inside this bar
 *    takes no target in it (the target may have traded before the entry did).
 *
 * Costs are the stepper's (engine/stepper/costs.ts): slippage on market and stop fills, none on limits and
 * targets; a fee on every side. Sizes fill whole.
 */

/** One market's book: the position and the orders working on it, in the order placed. */
export interface MarketBook {
  position: Position;
  working: WorkingOrder[];
}

export interface BookCosts extends Costs {
  /** Slippage in price. */
  slippage: number;
}

export const bookCosts = (market: Market): BookCosts => ({ ...DEFAULT_COSTS[market], slippage: slippageOf(market, DEFAULT_COSTS[market]) });

/** What one bar did to a book: the fills in the order they happened, and the trades they closed. */
export interface BarOutcome {
  fills: Fill[];
  closed: PairedTrade[];
}

export type Bar = Pick<BarRow, 't' | 'o' | 'h' | 'l' | 'c'>;

/** Steps one bar over the book (in place). `nextId` names each fill. */
export function stepBar(book: MarketBook, bar: Bar, costs: BookCosts, nextId: () => string): BarOutcome {
  const pos = book.position;
  const market = pos.market;
  const out: BarOutcome = { fills: [], closed: [] };

  const print = (order_id: string | null, side: Fill['side'], size: number, price: number, why: FillWhy, stop: number | null, target: number | null) => {
    const px = onTick(market, price);
    const fill: Fill = { id: nextId(), order_id, t: bar.t, market, side, size, price: px, fee: feePerSide(costs.fee, px), why, stop, target };
    out.fills.push(fill);
    out.closed.push(...applyFill(pos, fill));
  };
  const fillOrder = (o: WorkingOrder, price: number, why: FillWhy) => {
    book.working.splice(book.working.indexOf(o), 1);
    print(o.id, o.side, o.size, price, why, o.stop, o.target);
  };
  const exitAll = (price: number, why: 'stop' | 'target') => print(null, sideOf(-pos.dir), pos.size, price, why, null, null);

  const eligible = book.working.filter((o) => o.placed_at <= bar.t);
  // 1. The open.
  for (const o of eligible) {
    const d = dirOf(o.side);
    if (o.type === 'market') fillOrder(o, bar.o + d * costs.slippage, 'market');
    else if (d * (o.price! - bar.o) > 0) fillOrder(o, bar.o, 'limit');
  }
  if (pos.dir !== 0) {
    const d = pos.dir;
    if (pos.stop !== null && d * (bar.o - pos.stop) <= 0) exitAll(bar.o - d * costs.slippage, 'stop');
    else if (pos.target !== null && d * (bar.o - pos.target) > 0) exitAll(bar.o, 'target');
  }
  // 2. The range.
  let enteredInRange = false;
  for (const o of eligible) {
    if (!book.working.includes(o)) continue;
    const d = dirOf(o.side);
    const through = d > 0 ? bar.l < o.price! : bar.h > o.price!;
    if (!through) continue;
    const before = pos.dir * pos.size;
    fillOrder(o, o.price!, 'limit');
    if (Math.abs(pos.dir * pos.size) > Math.abs(before) || Math.sign(pos.dir * pos.size) !== Math.sign(before)) enteredInRange = true;
  }
  if (pos.dir !== 0) {
    const d = pos.dir;
    if (pos.stop !== null && (d > 0 ? bar.l <= pos.stop : bar.h >= pos.stop)) exitAll(pos.stop - d * costs.slippage, 'stop');
    else if (!enteredInRange && pos.target !== null && (d > 0 ? bar.h > pos.target : bar.l < pos.target)) exitAll(pos.target, 'target');
  }
  return out;
}
