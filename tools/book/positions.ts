import { z } from 'zod';
import { MARKETS } from '../../engine/markets.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { bookOf } from '../../services/book/books.js';
import { settled } from '../../services/book/history.js';
import { BookQuery } from '../../services/book/query.js';
import { positionView } from '../../services/book/views.js';
import { PositionsAnswer } from '../../services/book/answers.js';

export const positionsList = defineTool({
  name: 'positions',
  title: 'Your positions',
  description:
    "The open positions of your book (or of a model's, or of a replay's) per market: side, size, average entry, and the stop and target the venue keeps. A live book is first brought up to now from the tape. Read-only.",
  input: z.object(BookQuery).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: PositionsAnswer,
  access: 'session',
  toolset: TOOLSETS.book,
  rest: { method: 'GET', path: '/book/positions', errors: [404, 502, 503] },
  async run(ctx, input) {
    const { ref } = bookOf(ctx, input);
    await settled(ctx, ref);
    const positions = MARKETS.map((m) => ctx.upstreams.venue.position(ref.key, m)).filter((p) => p.dir !== 0);
    return { ok: true, book: { model: ref.model, run: input.run ?? null, mode: ref.mode }, positions: positions.map(positionView) };
  },
});
