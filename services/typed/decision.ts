import { isConflict, orderOfDecision, TYPED_DECISION_VERSION, TypedDecisionSchema, type TypedDecision } from '../../engine/book/index.js';
import type { OrderRecord } from '../../store/book.js';
import type { ModelRecord } from '../../store/models.js';
import type { BookRef } from '../../upstream/venue/venue.js';
import type { SessionCtx } from '../context.js';
import { DeckError, type Problem } from '../../core/errors.js';
import { capsOf } from '../book/books.js';
import { placeOrder } from '../book/place.js';

/**
 * An answer read against typed-decision.v1: the decision, or every field it failed, each named as `field` names a
 * path of the decision ('' for the answer as a whole); a field the contract does not have is named itself.
 */
export function readDecision(raw: unknown, field: (path: string) => string): { ok: true; decision: TypedDecision } | { ok: false; problems: Problem[] } {
  const parsed = TypedDecisionSchema.safeParse(raw);
  if (parsed.success) return { ok: true, decision: parsed.data };
  const problems = parsed.error.issues.flatMap((i) =>
    i.code === 'unrecognized_keys'
      ? i.keys.map((k) => ({ field: field([...i.path, k].join('.')), message: `not a field of ${TYPED_DECISION_VERSION}` }))
      : [{ field: field(i.path.join('.')), message: i.message }],
  );
  return { ok: false, problems };
}

/** Counts a refused answer against its model, under each field it named (without the caller's prefix). */
export const countRefused = (ctx: SessionCtx, model: ModelRecord, problems: readonly Problem[], prefix = '') =>
  ctx.store.models.refuse(
    ctx.principal.id,
    model.name,
    problems.map((p) => (prefix && p.field.startsWith(prefix) ? p.field.slice(prefix.length) : p.field)),
  );

/**
 * Routes a decision into a model's book as an order placed at `at` (its market, the model's caps): none for hold.
 * Refusals are the book's, each naming the decision's field as `prefix` + field: a decision that cannot apply to
 * the book as it stands is 409 (not_flat, flat, order_working); the rest as placeOrder refuses.
 */
export async function applyDecision(
  ctx: SessionCtx,
  model: ModelRecord,
  book: BookRef,
  d: TypedDecision,
  at: number,
  prefix: string,
  reference?: number,
): Promise<OrderRecord | null> {
  if (d.action === 'hold') return null;
  const venue = ctx.upstreams.venue;
  const conflictOf = (position: Parameters<typeof orderOfDecision>[2], working: number) => {
    const spec = orderOfDecision(d, model.market, position, working);
    if (isConflict(spec)) throw new DeckError(409, spec.code, spec.message, { problems: [{ field: `${prefix}${spec.field}`, message: spec.message }] });
    return spec;
  };
  if (book.mode === 'live') await venue.settle(book, model.market, at);
  const spec = conflictOf(venue.position(book.key, model.market), venue.working(book.key, model.market).length);
  if (!spec) return null;
  return placeOrder(ctx, book, spec, capsOf(ctx, model), {
    source: 'decision',
    why: d.why,
    at,
    ...(reference !== undefined ? { reference } : {}),
    // The market is the model's, not the decision's: a closed market names the model.
    field: (name) => (name === 'market' ? 'model' : `${prefix}${name}`),
    admit: (position, working) => void conflictOf(position, working.length),
  });
}
