import { averageEntry, type Position } from '../../../engine/book/index.js';
import type { FillRecord, OrderRecord } from '../../../store/book.js';
import type { Venue } from '../../../upstream/venue/venue.js';

/** An order as the history shows it: its status read from the venue, with its fill when it filled. */
export function orderView(venue: Venue, o: OrderRecord) {
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

export const fillView = (f: FillRecord) => ({
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

/** A position as a trader reads it: the side, the size, the average entry and the bracket the venue keeps. */
export const positionView = (p: Position) => ({
  market: p.market,
  side: p.dir > 0 ? 'long' : p.dir < 0 ? 'short' : 'flat',
  size: p.size,
  entry: averageEntry(p),
  stop: p.stop,
  target: p.target,
  opened_t: p.lots[0]?.t ?? null,
});
