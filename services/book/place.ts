import { randomBytes } from 'node:crypto';
import {
  breaches,
  dirOf,
  exposureOf,
  isOnStep,
  isOnTick,
  limitsFor,
  type CapBreach,
  type Caps,
  type OrderSpec,
  type Position,
} from '../../engine/book/index.js';
import { closedSpans, isOpen } from '../../engine/calendar.js';
import { MARKET_SPECS } from '../../engine/markets.js';
import type { OrderRecord } from '../../store/book.js';
import type { BookRef } from '../../upstream/venue/venue.js';
import type { Ctx } from '../context.js';
import { badInput, DeckError, type Problem } from '../../core/errors.js';

const WEEK_S = 7 * 86_400;

/** How an order came to the book, and the field names its refusals use (a typed decision names decision.*). */
export interface Placement {
  source: 'order' | 'decision';
  why: string | null;
  /** When the order is placed, unix seconds: now on a live book, a bar's close in a replay. */
  at: number;
  /** The last price (a replay's bar close); else the live tape's last close is read. */
  reference?: number;
  /** The field of the order each refusal names, as the caller sent it. */
  field?: (name: 'market' | 'side' | 'size' | 'price' | 'stop' | 'target') => string;
  /** A further check of the book as it stands when the order is taken (throws to refuse). */
  admit?: (position: Position, working: readonly OrderRecord[]) => void;
}

/** The market is shut at `at` by its calendar: 409 naming when it opens again. */
export function marketClosed(spec: Pick<OrderSpec, 'market'>, at: number, field: string): DeckError {
  const halt = closedSpans(spec.market, at, at + WEEK_S)[0];
  return new DeckError(409, 'market_closed', `${spec.market} is closed by the CME calendar (${halt?.why.replace('_', ' ') ?? 'halt'}); it opens again at ${new Date((halt?.to ?? at) * 1000).toISOString()}`, {
    problems: [{ field, message: 'closed by the CME calendar' }],
    reopens_at: halt?.to ?? null,
  });
}

/**
 * Places an order on a book, after every refusal the book has: a size off the market's size step and prices off
 * its tick (422), a stop or target on the wrong side of the price (422), a bracket on an order that reduces the
 * position (422), the market closed by the CME calendar (409), anything over the caps (422 over_caps, naming each
 * cap), and no last price on the live tape (422). The venue then brings the book up to now and takes the order.
 */
export async function placeOrder(ctx: Ctx, book: BookRef, spec: OrderSpec, caps: Caps, how: Placement): Promise<OrderRecord> {
  const name = how.field ?? ((n) => n);
  const { market, side, size } = spec;
  const problems: Problem[] = [];
  if (!isOnStep(market, size)) problems.push({ field: name('size'), message: `not on ${market}'s size step` });
  for (const key of ['price', 'stop', 'target'] as const) {
    const v = spec[key];
    if (v !== null && !isOnTick(market, v)) problems.push({ field: name(key), message: `not on ${market}'s tick of ${MARKET_SPECS[market].tick}` });
  }
  if (spec.type === 'limit' && spec.price === null) problems.push({ field: name('price'), message: 'a limit order needs its price' });
  if (spec.type === 'market' && spec.price !== null) problems.push({ field: name('price'), message: 'a market order takes no price' });
  if (problems.length) throw badInput(problems);
  if (!isOpen(market, how.at)) throw marketClosed(spec, how.at, name('market'));
  const limits = limitsFor(caps, market);
  // A market the caps leave out needs no price to refuse.
  if (!limits.traded) throw overCaps(breaches(limits, market, side, 0, 0, { long: -Infinity, short: -Infinity }), name);

  const reference = how.reference ?? spec.price ?? (await ctx.upstreams.venue.lastBar(market, how.at))?.c;
  if (reference === undefined) throw badInput([{ field: name('market'), message: `the live tape has no ${market} bar of the last four days to price the order against` }]);
  const price = spec.price ?? reference;
  const d = dirOf(side);
  if (spec.stop !== null && d * (price - spec.stop) <= 0) problems.push({ field: name('stop'), message: `a ${side} order's stop must be ${d > 0 ? 'below' : 'above'} its price (${price})` });
  if (spec.target !== null && d * (spec.target - price) <= 0) problems.push({ field: name('target'), message: `a ${side} order's target must be ${d > 0 ? 'above' : 'below'} its price (${price})` });
  if (problems.length) throw badInput(problems);

  const order: OrderRecord = {
    ...spec,
    id: `o_${randomBytes(8).toString('hex')}`,
    placed_at: how.at,
    book: book.key,
    principal: book.principal,
    model: book.model,
    run: book.run,
    mode: book.mode,
    source: how.source,
    why: how.why,
  };
  return ctx.upstreams.venue.place(book, order, (position, working) => {
    how.admit?.(position, working);
    const held = position.dir * position.size;
    if ((spec.stop !== null || spec.target !== null) && held * d < 0) {
      throw badInput([{ field: name(spec.stop !== null ? 'stop' : 'target'), message: 'this order reduces your position: a stop or target belongs to an order that opens or adds' }]);
    }
    const over = breaches(limits, market, side, size, price, exposureOf(held, working));
    if (over.length) throw overCaps(over, name);
  });
}

/** 422 over_caps: every cap the order breaks, each naming the field it is about. */
function overCaps(over: readonly CapBreach[], name: NonNullable<Placement['field']>): DeckError {
  return new DeckError(422, 'over_caps', `the order is over your caps: ${over.map((b) => b.message).join('; ')}`, {
    problems: over.map((b) => ({ field: name(b.cap === 'markets' ? 'market' : b.cap === 'allow_short' ? 'side' : 'size'), message: `${b.cap}: ${b.message}` })),
    caps: over.map((b) => ({ cap: b.cap, limit: b.limit })),
  });
}
