import { inWords } from '../../engine/decider/index.js';
import {
  answered,
  NONE_KEPT,
  pickRehearsal,
  sha256,
  type Answered,
  type ChatMessage,
  type ClosedQuestion,
  type KeptRehearsal,
  type ToJudge,
} from '../../engine/grade/index.js';
import type { ForgeRecord } from '../../store/forges.js';
import { REHEARSALS_KEPT, type GraderPart, type JudgedRehearsal, type Shown } from '../../store/grades.js';
import { askClosed } from '../../upstream/grader/chat.js';
import { fundingOf, pingsSpent } from '../../upstream/grader/funding.js';
import { DeckError } from '../../core/errors.js';
import { opens } from '../../core/principal.js';
import type { SessionCtx } from '../context.js';
import { recordSpend } from '../meter/spend.js';
import { RehearsalDigest } from './rehearse.js';
import { deciderOf, fromScript } from './cast.js';

// What grade and score share: the rehearsal judged, what the grader is shown, the decision spent and the receipt.

/**
 * The rehearsal a grade or score of your forge judges: the one `digest` names, else the latest of the seed on the
 * rule's own market (pickRehearsal). A named rehearsal that is not kept is 404 naming rehearsal_digest.
 */
export async function rehearsalToJudge(ctx: SessionCtx, forge: ForgeRecord, digest: string | undefined): Promise<ToJudge> {
  const notKept = () =>
    new DeckError(
      404,
      'rehearsal_not_found',
      `rehearsal_digest: no rehearsal of this seed with that digest is kept for you (a seed keeps its last ${REHEARSALS_KEPT} rehearsals, as long as its forge): rehearse it again`,
      { field: 'rehearsal_digest' },
    );
  const pick = pickRehearsal(ctx.store.grades.rehearsals(ctx.principal.id, forge.id, ctx.clock()), forge.script.market, digest ?? null);
  if (!pick) throw notKept();
  if (!pick.kept) return pick;
  // A newer rehearsal may drop the one picked between its record and its trades being read: it is then not kept.
  const kept = await ctx.store.grades.whole(pick.kept);
  if (kept) return { kept, chosen: pick.chosen };
  if (digest !== undefined) throw notKept();
  return { kept: null, why: NONE_KEPT };
}

/** The rehearsal judged, as a receipt names it. */
export const judgedOf = (kept: KeptRehearsal, chosen: JudgedRehearsal['chosen']): JudgedRehearsal => ({
  digest: kept.digest,
  chosen,
  market: kept.market,
  timeframe: kept.timeframe,
  from: kept.window.from,
  to: kept.window.to,
  trades: kept.trades.length,
});

/** What the grader is shown of a forge besides the words: its code in plain words (the decider IR rendered). */
export const codeInWordsOf = (forge: ForgeRecord): string => inWords(deciderOf(forge.script, fromScript).ir);

/** The receipt's record of what the grader was shown before each question. */
export const shownOf = (context: string, codeInWords: string): Shown => ({ digest: sha256(context), code_in_words: codeInWords });

export const RehearsalToJudge = RehearsalDigest.optional().describe(
  'the rehearsal to judge, by its digest (sha256 of the rehearsal\'s JSON answer; the studio record\'s rehearsal.digest); default: the latest rehearsal of this seed on the rule\'s own market',
);

/**
 * Spends one grader decision: funded the one way every grader door is (own key, house, plan or trial ping; 503 with
 * no lane, 402 naming what would fund it), every closed question asked at once. A decision that does not come back
 * whole (503 unreachable, 502 refused or nonsense) is not spent: a trial ping taken for it is given back and the
 * meter records nothing. A decision that comes back is recorded on the meter under `action`.
 */
export async function spendDecision(
  ctx: SessionCtx,
  ownKey: string | null,
  action: 'grade' | 'score',
  questions: readonly ClosedQuestion[],
  messagesOf: (q: ClosedQuestion) => ChatMessage[],
): Promise<{ grader: GraderPart; trial_pings_left: number | null }> {
  const p = ctx.principal;
  const grades = ctx.store.grades;
  const ask = {
    grader: ctx.config.grader,
    tier: p.tier,
    ownKey,
    trial: { limit: ctx.config.graderTrialPings, used: grades.pingsUsed(p.id) },
    plans: ctx.offer.plans.plans.filter((x) => opens(x.tier, 'plan')).map((x) => x.id),
  };
  const { lane, funded } = fundingOf(ask);
  let used: number | null = null;
  if (funded === 'trial') {
    used = await grades.takePing(p.id, (now) => {
      if (now >= ask.trial.limit) throw pingsSpent({ ...ask, trial: { ...ask.trial, used: now } });
    });
  }
  let answers: Answered[];
  try {
    answers = await Promise.all(questions.map(async (q) => answered(q, await askClosed(lane, messagesOf(q), ctx.ended()))));
  } catch (error) {
    if (used !== null) await grades.givePing(p.id);
    throw error;
  }
  await recordSpend(ctx, action);
  return { grader: { model: lane.model, funded, answers }, trial_pings_left: used === null ? null : ask.trial.limit - used };
}

/** A ledger entry as the caller reads it: the entry without whose it is, and where it sits in the chain. */
export const receiptOf = <E extends { principal_id: string }>(entry: E, rec: { seq: number; at: number; prev: string; hash: string }) => {
  const { principal_id: _, ...body } = entry;
  return { ...body, receipt_hash: rec.hash, prev_hash: rec.prev, seq: rec.seq, at: new Date(rec.at).toISOString() };
};
