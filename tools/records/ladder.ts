import { z } from 'zod';
import { ladderOf, MIN_TRADES, type ModelCloses } from '../../engine/ladder.js';
import type { Ctx } from '../context.js';
import { defineTool } from '../define.js';

/**
 * The paired closes of every model, as the book keeps them. The deck's book (its order routes and the paired closes
 * they make) is not built yet, so there is no model and no close: the ladder is empty, and says why.
 */
function pairedCloses(_ctx: Ctx): { built: boolean; models: ModelCloses[] } {
  return { built: false, models: [] };
}

export const ladder = defineTool({
  name: 'ladder',
  title: 'The ladder',
  description:
    `Trading models ranked by the R they realized, from the book's paired closes (each closed trade paired from its fills), with each one's max drawdown in R, win rate and the count of closed trades the figures rest on. A model with fewer than ${MIN_TRADES} closed trades reads unranked (its figures shown, no rank), and one with none has no figures (null, never zero); synthetic book actors are never listed. ` +
    'A record is past fills, never a forecast. Until the deck\'s book is built there are no paired closes, and the ladder is empty (book.built false). Needs no key.',
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'none',
  rest: { method: 'GET', path: '/records/ladder', tag: 'records' },
  async run(ctx) {
    const book = pairedCloses(ctx);
    return {
      ok: true,
      book: { built: book.built, note: book.built ? 'paired closes from the book' : 'the book is not built yet: no model has a paired close, so nothing is ranked' },
      ...ladderOf(book.models),
    };
  },
});
