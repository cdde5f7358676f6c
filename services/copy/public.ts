import { z } from 'zod';
import { recordOf } from '../../engine/book/index.js';
import type { ModelRecord } from '../../store/models.js';
import type { Ctx } from '../context.js';
import { DeckError } from '../../core/errors.js';
import { liveBookOf } from '../book/books.js';

/** A model as the copy seller names it: its owner's name and its own. */
export const PublicModelId = z.string().regex(/^[a-z0-9_-]{3,32}\/[a-z0-9_-]{3,32}$/, 'owner/name, as models lists it');

export interface Listed {
  id: string;
  principal: string;
  model: ModelRecord;
}

/** Every model the copy seller may speak of: the operators' own, never the house's synthetic book actors. */
export const listable = (ctx: Ctx): Listed[] =>
  ctx.store.models
    .all()
    .filter(({ model }) => !model.synthetic)
    .map(({ principal, model }) => ({ id: `${model.owner}/${model.name}`, principal, model }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** A listable model by its id: 404 for any other (a synthetic actor reads like none). */
export function publicModel(ctx: Ctx, id: string): Listed {
  const found = listable(ctx).find((m) => m.id === id);
  if (!found) throw new DeckError(404, 'model_not_found', `no model ${id} is listed`, { field: 'model' });
  return found;
}

/** A model's live book brought up to now from the tape. */
export async function settledBook(ctx: Ctx, m: Listed) {
  const ref = liveBookOf(m.principal, m.model.name);
  await ctx.upstreams.venue.settle(ref, m.model.market, Math.floor(ctx.clock() / 1000));
  return ref;
}

/**
 * A model's track record: the fills of its live book only (made forward on the live tape as it closed; a replay
 * is a test of the model, never its record), paired into closes.
 */
export function trackRecord(ctx: Ctx, m: Listed) {
  const fills = ctx.upstreams.venue.fills(liveBookOf(m.principal, m.model.name).key).filter((f) => f.mode === 'live');
  return { fills, ...recordOf(fills) };
}
