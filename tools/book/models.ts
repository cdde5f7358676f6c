import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { pageOf, Paging } from '../../services/book/paging.js';
import { listable, settledBook, trackRecord } from '../../services/copy/public.js';
import { ModelsAnswer } from '../../services/copy/answers.js';

export const models = defineTool({
  name: 'models',
  title: 'Live trading models',
  description:
    "The live trading models on the deck's book: models whose fills were made forward on the live tape (a replay is a test of a model, never its record), each with its realized PnL, max drawdown, win rate and R from paired closes, as the tape stands now (an entry paired with the fill that closes it). The house's synthetic book actors are never listed. Each record is past fills, never a forecast. Paged, by id.",
  input: z.object(Paging).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: ModelsAnswer,
  access: 'session',
  toolset: TOOLSETS.book,
  rest: { method: 'GET', path: '/copy/models', errors: [502, 503] },
  async run(ctx, input) {
    const all = listable(ctx);
    // Each book is brought up to now first (a book with nothing working and no stop or target costs nothing).
    for (const m of all) await settledBook(ctx, m);
    const live = all
      .map((m) => ({ m, record: trackRecord(ctx, m) }))
      .filter(({ record }) => record.fills.length > 0)
      .map(({ m, record }) => ({
        id: m.id,
        market: m.model.market,
        timeframe: m.model.timeframe,
        since: record.fills[0]!.t,
        last_fill_t: record.fills.at(-1)!.t,
        fills: record.fills.length,
        open: record.open.length > 0,
        stats: record.stats,
      }));
    return { ok: true, models: pageOf(live, input) };
  },
});
