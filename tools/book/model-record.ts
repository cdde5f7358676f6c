import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { pageOf, Paging } from '../../services/book/paging.js';
import { fillView, positionView } from '../../services/book/views.js';
import { PublicModelId, publicModel, settledBook, trackRecord } from '../../services/copy/public.js';
import { ModelRecordAnswer } from '../../services/copy/answers.js';

export const modelRecord = defineTool({
  name: 'model_record',
  title: "A model's record",
  description:
    "A live model's past fills and paired trades (each entry with the fill that closed it: side, size, entry and exit, PnL after fees, R when the entry carried a stop), paged oldest first, with the figures models shows recomputed from them and what is still open. The book is first brought up to now from the tape. Only live fills count. A record is the past: it holds no projection of any kind.",
  input: z.object({ model: PublicModelId, ...Paging }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: ModelRecordAnswer,
  access: 'session',
  toolset: TOOLSETS.book,
  rest: { method: 'GET', path: '/copy/record', errors: [404, 502, 503] },
  async run(ctx, input) {
    const m = publicModel(ctx, input.model);
    await settledBook(ctx, m);
    const record = trackRecord(ctx, m);
    return {
      ok: true,
      model: { id: m.id, market: m.model.market, timeframe: m.model.timeframe },
      stats: record.stats,
      trades: pageOf(record.trades, input),
      fills: pageOf(record.fills, input, fillView),
      open: record.open.map(positionView),
    };
  },
});
