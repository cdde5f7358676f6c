import { z } from 'zod';
import { inWords } from '../../engine/decider/index.js';
import {
  answered,
  decide,
  decisionDigest,
  GRADE_QUESTIONS,
  gradeContext,
  gradeFacts,
  pickRehearsal,
  questionMessages,
  RUBRIC_VERSION,
  sha256,
  type Answered,
  type ChatMessage,
  type ClosedQuestion,
  type KeptRehearsal,
  type ToJudge,
} from '../../engine/grade/index.js';
import type { ForgeRecord } from '../../store/forges.js';
import { REHEARSALS_KEPT, type GradeEntry, type GraderPart, type JudgedRehearsal, type Shown } from '../../store/grades.js';
import { askClosed } from '../../upstream/grader/chat.js';
import { fundingOf, GraderKey, pingsSpent } from '../../upstream/grader/funding.js';
import type { Ctx } from '../context.js';
import { defineTool } from '../define.js';
import { DeckError } from '../errors.js';
import { recordSpend } from '../meter/spend.js';
import { opens } from '../principal.js';
import { deciderOf, fromScript } from './cast.js';
import { myForge, SeedHash } from './forge-read.js';
import { RehearsalDigest } from './rehearse.js';
import { GradeAnswer } from './answers.js';

/**
 * The rehearsal a grade or score of your forge judges: the one `digest` names, else the latest of the seed on the
 * rule's own market (pickRehearsal). A named rehearsal that is not kept is 404 naming rehearsal_digest.
 */
export function rehearsalToJudge(ctx: Ctx, forge: ForgeRecord, digest: string | undefined): ToJudge {
  const pick = pickRehearsal(ctx.store.grades.rehearsals(ctx.principal!.id, forge.id, ctx.clock()), forge.script.market, digest ?? null);
  if (pick) return pick;
  throw new DeckError(
    404,
    'rehearsal_not_found',
    `rehearsal_digest: no rehearsal of this seed with that digest is kept for you (a seed keeps its last ${REHEARSALS_KEPT} rehearsals, as long as its forge): rehearse it again`,
    { field: 'rehearsal_digest' },
  );
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
  ctx: Ctx,
  ownKey: string | null,
  action: 'grade' | 'score',
  questions: readonly ClosedQuestion[],
  messagesOf: (q: ClosedQuestion) => ChatMessage[],
): Promise<{ grader: GraderPart; trial_pings_left: number | null }> {
  const p = ctx.principal!;
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
    answers = await Promise.all(questions.map(async (q) => answered(q, await askClosed(lane, messagesOf(q)))));
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

export const grade = defineTool({
  name: 'grade',
  title: 'Grade a forge',
  description:
    `Grades your forge's fidelity to your words under ${RUBRIC_VERSION}, never its profitability. Facts first, by code: the seven parts, a stop, a clean self-review and scan, an intact watermark, a rehearsal of this seed whose trades obey its stop, sides and ways out ` +
    '(the rehearsal named by rehearsal_digest, else the latest of this seed on the rule\'s own market; the receipt names it); ' +
    'a failed fact is a reject receipt and the grader is never asked (nothing spent). Otherwise one grader decision is spent: eight closed questions (yes / partly / no) about the words against the forged rule (its script and its code in plain words), each answered as a distribution, and code composes accept, revise or reject. ' +
    'Funded by your own grader key (grader_key), the house, your plan, or a trial ping on the free tier; 402 names what would fund it; 503 when no grader lane is configured, nothing spent. ' +
    'The receipt: the rehearsal judged, every fact and distribution, what the grader was shown (its digest and the code in plain words), the reasons, the decision digest and the receipt hash, chained in the grade ledger.',
  input: z
    .object({
      seed_hash: SeedHash.describe('the seed_hash your forge returned'),
      rehearsal_digest: RehearsalToJudge,
      grader_key: GraderKey.optional(),
    })
    .strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  output: GradeAnswer,
  access: 'session',
  rest: { method: 'POST', path: '/studio/grade', errors: [402, 404, 502, 503], tag: 'studio' },
  async run(ctx, input) {
    const p = ctx.principal!;
    const forge = myForge(ctx, input.seed_hash);
    const pick = rehearsalToJudge(ctx, forge, input.rehearsal_digest);
    const facts = gradeFacts(forge, pick);
    let shown: Shown | null = null;
    let spent: Awaited<ReturnType<typeof spendDecision>> | null = null;
    if (facts.every((f) => f.held)) {
      const code = codeInWordsOf(forge);
      const context = gradeContext(forge.intent, forge.script, code);
      spent = await spendDecision(ctx, input.grader_key ?? null, 'grade', GRADE_QUESTIONS, (q) => questionMessages(context, q));
      shown = shownOf(context, code);
    }
    const answers = spent?.grader.answers ?? null;
    const { decision, reasons } = decide(facts, answers, GRADE_QUESTIONS);
    const subject = { seed_hash: forge.id, version: forge.version, words_sha256: sha256(forge.intent) };
    const judged: Record<string, string> = pick.kept ? { rehearsal_digest: pick.kept.digest } : {};
    const entry: GradeEntry = {
      principal_id: p.id,
      rubric: RUBRIC_VERSION,
      ...subject,
      decision,
      rehearsal: pick.kept ? judgedOf(pick.kept, pick.chosen) : null,
      facts,
      grader: spent?.grader ?? null,
      shown,
      reasons,
      decision_digest: decisionDigest({ rubric: RUBRIC_VERSION, subject: { ...subject, ...judged }, facts, answers, outcome: decision }),
    };
    const rec = await ctx.store.grades.receipt(entry, ctx.clock());
    return { ok: true, ...receiptOf(entry, rec), ...(spent && spent.trial_pings_left !== null ? { trial_pings_left: spent.trial_pings_left } : {}) };
  },
});
