import { z } from 'zod';
import { averageEntry, FILL_WHY, ORDER_TYPES, SIDES, type Position } from '../../engine/book/index.js';
import { MARKETS } from '../../engine/markets.js';
import { MODES, ORDER_STATUSES, type FillRecord, type OrderRecord } from '../../store/book.js';
import type { Venue } from '../../upstream/venue/venue.js';
import { UnixS } from '../../core/schemas.js';

const Mode = z.enum(MODES).describe('live: made forward on the tape as it closes; replay: a test of a model over a past window');
const Whose = {
  model: z.string().nullable().describe('the model whose book it is on; null on your own book'),
  run: z.string().nullable().describe('the agent run that placed it; null otherwise'),
  mode: Mode,
};

/** A fill as the history shows it. */
export const FillView = z.strictObject({
  id: z.string(),
  order_id: z.string().nullable().describe("the order it filled; null for a bracket's own fill"),
  ...Whose,
  market: z.enum(MARKETS),
  side: z.enum(SIDES),
  size: z.number(),
  t: UnixS.describe('the open of the bar it filled in'),
  price: z.number().describe('after slippage, on the tick'),
  fee: z.number().describe('the fee of one side for one unit, in price units'),
  why: z.enum(FILL_WHY).describe("the order's type, or the bracket (stop, target) that filled"),
  stop: z.number().nullable(),
  target: z.number().nullable(),
});

/** An order as the history shows it: its status read from the venue, with its fill when it filled. */
export const OrderView = z.strictObject({
  id: z.string(),
  ...Whose,
  source: z.enum(['order', 'decision']).describe('placed as an order, or a typed decision'),
  market: z.enum(MARKETS),
  side: z.enum(SIDES),
  type: z.enum(ORDER_TYPES),
  size: z.number(),
  price: z.number().nullable().describe('the limit; null for a market order'),
  stop: z.number().nullable(),
  target: z.number().nullable(),
  why: z.string().nullable().describe("a typed decision's why"),
  placed_at: UnixS,
  status: z.enum(ORDER_STATUSES),
  fill: FillView.nullable(),
});

/** A position as a trader reads it: the side, the size, the average entry and the bracket the venue keeps. */
export const PositionView = z.strictObject({
  market: z.enum(MARKETS),
  side: z.enum(['long', 'short', 'flat']),
  size: z.number(),
  entry: z.number().nullable().describe('the average entry of what is open; null when flat'),
  stop: z.number().nullable(),
  target: z.number().nullable(),
  opened_t: UnixS.nullable().describe('when the oldest open lot filled'),
});

/** Which book a history read names. */
export const BookView = z.strictObject(Whose);

export function orderView(venue: Venue, o: OrderRecord): z.infer<typeof OrderView> {
  const status = venue.status(o.id);
  return {
    id: o.id,
    model: o.model,
    run: o.run,
    mode: o.mode,
    source: o.source,
    market: o.market,
    side: o.side,
    type: o.type,
    size: o.size,
    price: o.price,
    stop: o.stop,
    target: o.target,
    why: o.why,
    placed_at: o.placed_at,
    status,
    fill: status === 'filled' ? fillView(venue.fillOf(o.id)!) : null,
  };
}

export const fillView = (f: FillRecord): z.infer<typeof FillView> => ({
  id: f.id,
  order_id: f.order_id,
  model: f.model,
  run: f.run,
  mode: f.mode,
  market: f.market,
  side: f.side,
  size: f.size,
  t: f.t,
  price: f.price,
  fee: f.fee,
  why: f.why,
  stop: f.stop,
  target: f.target,
});

export const positionView = (p: Position): z.infer<typeof PositionView> => ({
  market: p.market,
  side: p.dir > 0 ? 'long' : p.dir < 0 ? 'short' : 'flat',
  size: p.size,
  entry: averageEntry(p),
  stop: p.stop,
  target: p.target,
  opened_t: p.lots[0]?.t ?? null,
});
