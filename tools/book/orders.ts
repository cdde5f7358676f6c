import { z } from 'zod';
import { ORDER_STATUSES } from '../../store/book.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { bookOf } from '../../services/book/books.js';
import { settled } from '../../services/book/history.js';
import { pageOf, Paging } from '../../services/book/paging.js';
import { orderView } from '../../services/book/views.js';
import { OrdersAnswer } from '../../services/book/answers.js';
import { BookQuery } from '../../services/book/query.js';

export const ordersList = defineTool({
  name: 'orders',
  title: 'Your orders',
  description:
    "The orders of your book (or of a model's, or of a run's), oldest first and paged, each with its status (working, filled, cancelled) and its fill. A live book is first brought up to now from the tape. Read-only.",
  input: z.object({ ...BookQuery, status: z.enum(ORDER_STATUSES).optional().describe('only orders in this status'), ...Paging }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: OrdersAnswer,
  access: 'session',
  toolset: TOOLSETS.book,
  rest: { method: 'GET', path: '/book/orders', errors: [404, 502, 503] },
  async run(ctx, input) {
    const { ref } = bookOf(ctx, input);
    await settled(ctx, ref);
    const venue = ctx.upstreams.venue;
    const all = venue.orders(ref.key).filter((o) => (!input.run || o.run === input.run) && (!input.status || venue.status(o.id) === input.status));
    return { ok: true, book: { model: ref.model, run: input.run ?? null, mode: ref.mode }, orders: pageOf(all, input, (o) => orderView(venue, o)) };
  },
});
