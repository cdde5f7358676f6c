import { z } from 'zod';
import { ladderOf, MIN_TRADES, type ModelCloses } from '../../engine/ladder.js';
import type { Ctx } from '../../services/context.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { listable, settledBook, trackRecord } from '../../services/copy/public.js';
import { LadderAnswer } from '../../services/records/answers.js';

/**
 * The paired closes of every listed model (never a synthetic book actor), from its live book brought up to now: the
 * same fills and pairing the copy seller's records show, so the ladder and a model's record cannot disagree. A close
 * with no R (its entry carried no stop) is left out of the ranking, as it is of the record's R.
 */
async function pairedCloses(ctx: Ctx): Promise<ModelCloses[]> {
  const models: ModelCloses[] = [];
  for (const m of listable(ctx)) {
    await settledBook(ctx, m);
    const closes = trackRecord(ctx, m).trades.flatMap((t) => (t.r === null ? [] : [{ closed_at: t.exit_t * 1000, r: t.r }]));
    models.push({ model: m.id, synthetic: m.model.synthetic === true, closes });
  }
  return models;
}

export const ladder = defineTool({
  name: 'ladder',
  title: 'The ladder',
  description:
    `Trading models ranked by the R they realized, from the book's paired closes (each closed trade paired from its fills), with each one's max drawdown in R, win rate and the count of closed trades the figures rest on. A model with fewer than ${MIN_TRADES} closed trades reads unranked (its figures shown, no rank), and one with none has no figures (null, never zero); synthetic book actors are never listed. ` +
    'A record is past fills, never a forecast: the same live fills and pairing as model_record. Needs no key.',
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: LadderAnswer,
  access: 'none',
  toolset: TOOLSETS.records,
  rest: { method: 'GET', path: '/records/ladder', errors: [502, 503] },
  async run(ctx) {
    return { ok: true, ...ladderOf(await pairedCloses(ctx)) };
  },
});
