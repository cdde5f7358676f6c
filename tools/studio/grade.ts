import { z } from 'zod';
import {
  decide,
  decisionDigest,
  GRADE_QUESTIONS,
  gradeContext,
  gradeFacts,
  questionMessages,
  RUBRIC_VERSION,
  sha256,
} from '../../engine/grade/index.js';
import type { GradeEntry, Shown } from '../../store/grades.js';
import { GraderKey } from '../../upstream/grader/funding.js';
import type { SessionCtx } from '../../services/context.js';
import { defineTool } from '../define.js';
import { myForge, SeedHash } from './forge-read.js';
import { codeInWordsOf, judgedOf, RehearsalToJudge, rehearsalToJudge, receiptOf, shownOf, spendDecision } from '../../services/studio/judging.js';
import { GradeAnswer } from '../../services/studio/answers.js';

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
  run: (ctx, input) => gradeForge(ctx, input),
});

/** Grades your forge's fidelity to your words and chains the receipt: the grade tool, and the studio's grade move. */
export async function gradeForge(ctx: SessionCtx, input: { seed_hash: string; rehearsal_digest?: string | undefined; grader_key?: string | undefined }) {
  const p = ctx.principal;
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
}
