import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { bookOf } from '../../services/book/books.js';
import { settled } from '../../services/book/history.js';
import { BookQuery } from '../../services/book/query.js';
import { pageOf, Paging } from '../../services/book/paging.js';
import { fillView } from '../../services/book/views.js';
import { FillsAnswer } from '../../services/book/answers.js';

export const fillsList = defineTool({
  name: 'fills',
  title: 'Your fills',
  description:
    "The fills of your book (or of a model's, or of a run's), oldest first and paged: where each order and each stop or target filled, at which bar, with its fee. Every fill is an entry of the deck's hash-chained fills ledger. A live book is first brought up to now from the tape. Read-only.",
  input: z.object({ ...BookQuery, ...Paging }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: FillsAnswer,
  access: 'session',
  toolset: TOOLSETS.book,
  rest: { method: 'GET', path: '/book/fills', errors: [404, 502, 503] },
  async run(ctx, input) {
    const { ref } = bookOf(ctx, input);
    await settled(ctx, ref);
    const all = ctx.upstreams.venue.fills(ref.key).filter((f) => !input.run || f.run === input.run);
    return { ok: true, book: { model: ref.model, run: input.run ?? null, mode: ref.mode }, fills: pageOf(all, input, fillView) };
  },
});
