import { follow, openEpoch, planProblems, type Facts, type Opening, type SeriesRecord, type UnsignedPlan } from '../../engine/series/index.js';
import type { HandshakeAnswer } from '../../upstream/coord/wire.js';
import type { Ctx, SessionCtx } from '../context.js';
import { DeckError } from '../../core/errors.js';
import { mySeries, nowS, writeSeries } from './view.js';

/** A series as a read left it: the record, the open epoch's handshake as the layer reported it, and what the layer failed to answer. */
export interface Followed {
  record: SeriesRecord;
  hire: HandshakeAnswer | null;
  layer: DeckError | null;
}

/** The settle answer for an epoch, checked against what the epoch's job must say; 502 plan_refused otherwise. */
export async function settled(ctx: Ctx, r: SeriesRecord, epoch: number, handshakeId: string) {
  const plan = await ctx.upstreams.coord.settle(handshakeId);
  const e = r.epochs[epoch - 1]!;
  const problems = planProblems(plan, { handshake_id: handshakeId, class: r.terms.class, paymentRef: e.paymentRef, evaluator: r.terms.per_epoch.judge.evaluator, window_to: e.window.to });
  if (problems.length > 0)
    throw new DeckError(502, 'plan_refused', `the layer's plan does not open epoch ${epoch}'s job: ${problems.join('; ')}`, { problems, layer: plan });
  return { unsigned: plan.unsigned as UnsignedPlan, job: plan.job };
}

/**
 * Brings the principal's series up to the layer (404 when it is not theirs): adopts the handshakes the recovery ledger
 * kept, reads the open epoch's handshake, settles again an open epoch whose plan is missing, and applies the time rules.
 * A layer that cannot answer leaves the epoch as kept and is reported in `layer`; the rules that need no layer still
 * apply. Writes only when something moved.
 */
export async function followSeries(ctx: SessionCtx, id: string): Promise<Followed> {
  const kept = mySeries(ctx, id);
  const now = nowS(ctx);
  const adopt: Opening[] = ctx.store.series
    .handshakesKept(id)
    .filter((k) => kept.epochs[k.epoch - 1]?.handshake_id !== k.handshake_id)
    .map((k) => ({ epoch: k.epoch, handshake_id: k.handshake_id, opened_at: k.opened_at, unsigned: null, job: null, adopted: true }));
  // The epoch the layer holds open: the one kept open, or else the last handshake to adopt.
  const open = openEpoch(kept);
  const target = open ? { epoch: open.index, handshake_id: open.handshake_id!, planned: open.unsigned !== null } : adopt.length ? { ...adopt[adopt.length - 1]!, planned: false } : null;
  const facts: Facts = { adopt, handshake: null, plan: null };
  let hire: HandshakeAnswer | null = null;
  let layer: DeckError | null = null;
  if (target) {
    try {
      hire = await ctx.upstreams.coord.handshake(target.handshake_id);
      facts.handshake = { epoch: target.epoch, handshake_id: target.handshake_id, state: hire.state, verdict: hire.verdict ?? null, ended_at: hire.ended_at ?? null };
      if (!target.planned && hire.state !== 'ended') facts.plan = { epoch: target.epoch, handshake_id: target.handshake_id, ...(await settled(ctx, kept, target.epoch, target.handshake_id)) };
    } catch (error) {
      if (!(error instanceof DeckError)) throw error;
      layer = error;
    }
  }
  if (follow(kept, facts, now).moves.length === 0) return { record: kept, hire, layer };
  const changed = await writeSeries(ctx, id, (current) => follow(current, facts, now), 'the series could not be written: it is as it was; read it again');
  return { record: changed.record, hire, layer };
}
