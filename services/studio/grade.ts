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
import type { SessionCtx } from '../context.js';
import { myForge } from './forge-read.js';
import { codeInWordsOf, judgedOf, rehearsalToJudge, receiptOf, shownOf, spendDecision } from './judging.js';

/** Grades your forge's fidelity to your words and chains the receipt: the grade tool, and the studio's grade move. */
export async function gradeForge(ctx: SessionCtx, input: { seed_hash: string; rehearsal_digest?: string | undefined; grader_key?: string | undefined }) {
  const p = ctx.principal;
  const forge = myForge(ctx, input.seed_hash);
  const pick = await rehearsalToJudge(ctx, forge, input.rehearsal_digest);
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
