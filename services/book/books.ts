import { z } from 'zod';
import type { Caps } from '../../engine/book/index.js';
import { within } from '../../engine/book/index.js';
import { bookKey } from '../../store/book.js';
import type { ModelRecord } from '../../store/models.js';
import type { RunRecord } from '../../store/runs.js';
import type { BookRef } from '../../upstream/venue/venue.js';
import type { SessionCtx } from '../context.js';
import { DeckError } from '../../core/errors.js';

/** A model's name: unique among its principal's models (the copy seller names it owner/name). */
export const ModelName = z.string().regex(/^[a-z0-9_-]{3,32}$/, '3 to 32 of a-z, 0-9, _ and -');
export const RunId = z.string().regex(/^run_[0-9a-f]{16}$/, 'a run id as POST /agent/runs answered it');

export function myModel(ctx: SessionCtx, name: string): ModelRecord {
  const m = ctx.store.models.get(ctx.principal.id, name);
  if (!m) throw new DeckError(404, 'model_not_found', `you have no model named ${name}`, { field: 'model' });
  return m;
}

export function myRun(ctx: SessionCtx, id: string): RunRecord {
  const r = ctx.store.runs.get(ctx.principal.id, id);
  if (!r) throw new DeckError(404, 'run_not_found', `you have no run ${id}`, { field: 'run' });
  return r;
}

/** A principal's own book (model null) or one of its models' live books: forward on the live tape. */
export function liveBookOf(principal: string, model: string | null, run: string | null = null): BookRef {
  const owner = { principal, model, replay: null };
  return { ...owner, key: bookKey(owner), mode: 'live', run };
}

/** The caller's own book, or one of its models' live books. */
export const liveBook = (ctx: SessionCtx, model: string | null, run: string | null = null): BookRef => liveBookOf(ctx.principal.id, model, run);

/** A replay run's own book: a test of its model over a past window, never the model's record. */
export function replayBook(ctx: SessionCtx, model: string, run: string): BookRef {
  const owner = { principal: ctx.principal.id, model, replay: run };
  return { ...owner, key: bookKey(owner), mode: 'replay', run };
}

/** The caps an order on the book meets: the principal's own, and a model's inside them (both inside the house's). */
export function capsOf(ctx: SessionCtx, model: ModelRecord | null): Caps {
  const own = ctx.store.bookCaps.get(ctx.principal.id);
  return model ? within(model.caps, own) : own;
}

/**
 * The book a history read names: without a model, the principal's own; with a model, its live book; with a run,
 * that run's (a replay's book, or the orders and fills a live run placed on its model's book).
 */
export function bookOf(ctx: SessionCtx, q: { model?: string | undefined; run?: string | undefined }): { ref: BookRef; run: RunRecord | null } {
  if (q.run) {
    const run = myRun(ctx, q.run);
    if (q.model && q.model !== run.model) throw new DeckError(404, 'run_not_found', `run ${run.id} is not a run of ${q.model}`, { field: 'run' });
    return { ref: run.mode === 'replay' ? replayBook(ctx, run.model, run.id) : liveBook(ctx, run.model, run.id), run };
  }
  if (q.model) myModel(ctx, q.model);
  return { ref: liveBook(ctx, q.model ?? null), run: null };
}
