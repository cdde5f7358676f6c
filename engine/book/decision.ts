import { z } from 'zod';
import type { Market } from '../markets.js';
import type { OrderSpec } from './order.js';
import type { Position } from './position.js';

/**
 * typed-decision.v1: the contract of a model's answer, one decision per closed bar. hold does nothing; enter opens
 * a long or short position of `size` (contracts, or coins) at the next bar's open, with its protective `stop` and
 * an optional `target`; exit closes the whole position at the next bar's open. Every decision says why.
 */
export const TYPED_DECISION_VERSION = 'typed-decision.v1';

const Why = z.string().min(1).max(500).describe('why, in a sentence: kept with the order');
const Version = z.literal(TYPED_DECISION_VERSION).optional().describe(`the contract's version, ${TYPED_DECISION_VERSION}`);
const Price = z.number().finite().positive();

export const TypedDecisionSchema = z.discriminatedUnion('action', [
  z.strictObject({ version: Version, action: z.literal('hold'), why: Why }),
  z.strictObject({
    version: Version,
    action: z.literal('enter'),
    side: z.enum(['long', 'short']),
    size: z.number().finite().positive().describe("contracts (NQ, ES, YM) or coins (BTC, ETH, SOL), on the market's size step"),
    stop: Price.describe('the protective stop: below the last close for a long, above it for a short'),
    target: Price.optional().describe('a resting target: above the last close for a long, below it for a short'),
    why: Why,
  }),
  z.strictObject({ version: Version, action: z.literal('exit'), why: Why }),
]);
export type TypedDecision = z.infer<typeof TypedDecisionSchema>;

/** A decision that cannot apply to the book as it stands (409), naming the field. */
export interface DecisionConflict {
  code: 'not_flat' | 'flat' | 'order_working';
  field: string;
  message: string;
}

/**
 * The order a decision places on a book holding `position` with `working` orders: none for hold; a market order for
 * enter (only from flat: a model adds or turns by exiting first) and for exit (the whole position; only when one is
 * open). While an order of the book is still working, only hold applies: the book is about to change.
 */
export function orderOfDecision(d: TypedDecision, market: Market, position: Position, working: number): OrderSpec | DecisionConflict | null {
  if (d.action === 'hold') return null;
  if (working > 0) return { code: 'order_working', field: 'action', message: `${working} order(s) of this book still working: they fill at the next bar's open` };
  if (d.action === 'enter') {
    if (position.dir !== 0) {
      return { code: 'not_flat', field: 'action', message: `the book already holds a ${position.dir > 0 ? 'long' : 'short'} of ${position.size}: exit first` };
    }
    return { market, side: d.side === 'long' ? 'buy' : 'sell', size: d.size, type: 'market', price: null, stop: d.stop, target: d.target ?? null };
  }
  if (position.dir === 0) return { code: 'flat', field: 'action', message: 'the book holds no position to exit' };
  return { market, side: position.dir > 0 ? 'sell' : 'buy', size: position.size, type: 'market', price: null, stop: null, target: null };
}

export const isConflict = (x: OrderSpec | DecisionConflict | null): x is DecisionConflict => x !== null && 'code' in x;
