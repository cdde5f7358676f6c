import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { DeckError } from '../../core/errors.js';
import { liveBook } from '../../services/book/books.js';
import { orderView } from '../../services/book/views.js';
import { OrderAnswer } from '../../services/book/answers.js';

export const orderCancel = defineTool({
  name: 'order_cancel',
  title: 'Cancel an order',
  description:
    "Cancels one of your working orders (yours or your models'). The book is first brought up to now from the tape, so an order a closed bar already filled is filled: 409 order_filled, with the fill. A cancelled order answers 409 order_cancelled; an order that is not yours, 404.",
  input: z.object({ id: z.string().regex(/^o_[0-9a-f]{16}$/, 'an order id as the book answered it') }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  output: OrderAnswer,
  access: 'session',
  toolset: TOOLSETS.book,
  rest: { method: 'DELETE', path: '/book/orders/:id', errors: [404, 409, 502, 503] },
  async run(ctx, { id }) {
    const venue = ctx.upstreams.venue;
    const order = ctx.store.book.order(ctx.principal.id, id);
    if (!order) throw new DeckError(404, 'order_not_found', 'no such order of yours', { field: 'id' });
    if (order.mode === 'replay') throw new DeckError(409, 'order_replayed', 'an order of a replay belongs to a past window: it cannot be cancelled', { order: orderView(venue, order) });
    const was = await venue.cancel(liveBook(ctx, order.model, order.run), order, ctx.clock());
    if (was !== 'working') {
      throw new DeckError(409, `order_${was}`, was === 'filled' ? 'the order has filled: there is nothing to cancel' : 'the order is already cancelled', { order: orderView(venue, order) });
    }
    return { ok: true, order: orderView(venue, order) };
  },
});
