import { z } from 'zod';
import { nextOf, type Changed, type Epoch, type SeriesRecord } from '../../engine/series/index.js';
import { epochFeedback, type FeedbackRegistries } from '../../engine/erc8004/feedback.js';
import { provenWallet } from '../../core/principal.js';
import type { Chained } from '../../store/series.js';
import type { Ctx, SessionCtx } from '../context.js';
import { DeckError } from '../../core/errors.js';

/** The deck's clock in unix seconds, the unit every series time is in. */
export const nowS = (ctx: Ctx): number => Math.floor(ctx.clock() / 1000);

export const SeriesId = z.string().regex(/^sr_[0-9a-f]{24}$/, 'a series id (sr_ and 24 hex digits)').describe('the series id');

/** The registries feedback is given on: all three named (DECK_ERC8004_CHAIN_ID, _REGISTRY, _REPUTATION), else none. */
export function feedbackRegistries(ctx: Ctx): FeedbackRegistries | null {
  const { chainId, registry, reputation } = ctx.config.erc8004;
  return chainId !== null && registry !== null && reputation !== null ? { chainId, identity: registry, reputation } : null;
}

/** An epoch's ERC-8004 feedback for the seller, given by `client` (null: a client with no proven wallet; no file then). */
export function feedbackOf(ctx: Ctx, r: SeriesRecord, e: Epoch, client: string | null) {
  const at = feedbackRegistries(ctx);
  return at ? epochFeedback(r, e, `${ctx.urls.base}/mcp/${r.quote.agent.seller}`, client, at) : null;
}

/**
 * A series as every route answers it: the record, each epoch with the feedback its principal may give the seller once
 * the layer ended it (docs/series.md, reputation), and the move that follows.
 */
export const seriesView = (ctx: SessionCtx, r: SeriesRecord, now: number) => {
  const client = provenWallet(ctx.principal);
  return { ...r, epochs: r.epochs.map((e) => ({ ...e, feedback: feedbackOf(ctx, r, e, client) })), next: nextOf(r, now) };
};

export const notYours = (id: string): DeckError => new DeckError(404, 'not_found', `no series ${id} of yours`);

/** The principal's series, or 404: another principal's id reads like one that does not exist. */
export function mySeries(ctx: SessionCtx, id: string): SeriesRecord {
  const found = ctx.store.series.get(ctx.principal.id, id);
  if (!found) throw notYours(id);
  return found;
}

/** The series could not be written (the reason goes to the log): 503, with what the caller should know besides. */
export function notWritten(ctx: Ctx, id: string, error: Error, message: string, details: Record<string, unknown> = {}): DeckError {
  ctx.log.error('series_not_written', { series: id, error: error.message });
  return new DeckError(503, 'series_not_written', message, details);
}

/** Moves chained behind the write are chained at the series' next write or the next start; the operator hears of it. */
export function chainedOrLogged(ctx: Ctx, id: string, chained: Chained): void {
  if (chained === 'behind') ctx.log.error('series_ledger_behind', { series: id });
}

/**
 * Applies a change to the principal's series as it is when the write runs; a refusal the change throws passes through,
 * a write that fails is 503 with `failed` as its message and nothing written.
 */
export async function writeSeries(ctx: SessionCtx, id: string, change: (now: SeriesRecord) => Changed, failed: string, details: Record<string, unknown> = {}): Promise<Changed> {
  const changed = await ctx.store.series.apply(ctx.principal.id, id, change).catch((error: Error) => {
    throw error instanceof DeckError ? error : notWritten(ctx, id, error, failed, details);
  });
  if (!changed) throw notYours(id);
  chainedOrLogged(ctx, id, changed.chained);
  return changed;
}
