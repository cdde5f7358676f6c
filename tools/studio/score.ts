import { z } from 'zod';
import {
  decisionDigest,
  partFacts,
  partMessages,
  partQuestion,
  questionMessages,
  REHEARSED_QUESTIONS,
  rehearsedContext,
  rehearsedFacts,
  RUBRIC_VERSION,
  scoreOf,
  sha256,
  type Answered,
  type ClosedQuestion,
  type Fact,
} from '../../engine/grade/index.js';
import { citationProblems, isSettled, PARTS, type PartName } from '../../engine/reader/index.js';
import { STAGES, type GraderPart, type JudgedRehearsal, type ScoreEntry, type Shown, type Stage } from '../../store/grades.js';
import { GraderKey } from '../../upstream/grader/funding.js';
import type { SessionCtx } from '../../services/context.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { badInput, DeckError } from '../../core/errors.js';
import { myForge, SeedHash } from '../../services/studio/forge-read.js';
import { codeInWordsOf, judgedOf, receiptOf, RehearsalToJudge, rehearsalToJudge, shownOf, spendDecision } from '../../services/studio/judging.js';
import { RuleWords, withinWordsCap } from '../../services/studio/words.js';
import { readOnPool } from '../../services/studio/cast.js';
import { ScoreAnswer } from '../../services/studio/answers.js';

interface Judged {
  stage: Stage;
  subject: ScoreEntry['subject'];
  facts: Fact[];
  questions: readonly ClosedQuestion[];
  /** Points: one per question the stage has. */
  n: number;
  spent: { grader: GraderPart; trial_pings_left: number | null } | null;
  /** Stage rehearsed: the rehearsal judged, and what the grader was shown of it (null when not asked). */
  judged?: { rehearsal: JudgedRehearsal; shown: Shown | null };
}

const PART_QUESTIONS = PARTS.map(partQuestion);

/**
 * Stage parts: the deck's reading of the words, each part read or defaulted asked about (a defaulted one shown with
 * the defaults it took); a part missing or ambiguous scores 0 unasked.
 */
async function judgeParts(ctx: SessionCtx, text: string | undefined, ownKey: string | null): Promise<Judged> {
  if (text === undefined) throw badInput([{ field: 'text', message: 'stage parts scores the reading of words: send them as text' }]);
  const words = withinWordsCap(text, 'text');
  const reading = await readOnPool(ctx, words);
  const facts = partFacts(reading, citationProblems(words, reading));
  const cited = facts.find((f) => f.name === 'citations')!.held;
  const asked = cited ? PART_QUESTIONS.filter((q) => isSettled(reading[q.id as PartName].status)) : [];
  const spent = asked.length ? await spendDecision(ctx, ownKey, 'score', asked, (q) => partMessages(words, reading, q.id as PartName, q)) : null;
  return { stage: 'parts', subject: { words_sha256: sha256(words) }, facts, questions: PART_QUESTIONS, n: PARTS.length, spent };
}

/**
 * Stage rehearsed: a rehearsal of your forge against the words (the one named, else the latest on the rule's own
 * market; 409 when there is none to judge); a failed fact scores the stage 0 unasked.
 */
async function judgeRehearsed(ctx: SessionCtx, seed: string | undefined, digest: string | undefined, ownKey: string | null): Promise<Judged> {
  if (seed === undefined) throw badInput([{ field: 'seed_hash', message: 'stage rehearsed scores the rehearsal of a forge: send its seed_hash' }]);
  const forge = myForge(ctx, seed);
  const pick = await rehearsalToJudge(ctx, forge, digest);
  if (!pick.kept) throw new DeckError(409, 'not_rehearsed', `the rehearsed stage needs a rehearsal first: ${pick.why}`, { seed_hash: forge.id });
  const kept = pick.kept;
  const facts = rehearsedFacts(forge.script, kept);
  let shown: Shown | null = null;
  let spent: Judged['spent'] = null;
  if (facts.every((f) => f.held)) {
    const code = codeInWordsOf(forge);
    const context = rehearsedContext(forge.intent, forge.script, code, kept);
    spent = await spendDecision(ctx, ownKey, 'score', REHEARSED_QUESTIONS, (q) => questionMessages(context, q));
    shown = shownOf(context, code);
  }
  const subject = { seed_hash: forge.id, rehearsal_digest: kept.digest, words_sha256: sha256(forge.intent) };
  const judged = { rehearsal: judgedOf(kept, pick.chosen), shown };
  return { stage: 'rehearsed', subject, facts, questions: REHEARSED_QUESTIONS, n: REHEARSED_QUESTIONS.length, spent, judged };
}

export const score = defineTool({
  name: 'score',
  title: 'Score a studio stage',
  description:
    `Scores a stage under ${RUBRIC_VERSION}: facts first, by code, then closed questions to the grader (yes / partly / no, each a distribution), then code composes a score of k points out of n, recorded for calibration. ` +
    'Stage parts (text): the deck reads the words into seven parts; each part read is asked about (does the reading say what the words say), a part missing or ambiguous scores 0 unasked; n = 7. ' +
    'Stage rehearsed (seed_hash, rehearsal_digest?): the rehearsal of your forge named by rehearsal_digest, else its latest on the rule\'s own market; its trades must obey the stop, sides and ways out of the rule, then four questions about the trades against the words (shown with the script and the code in plain words); n = 4; 409 when there is no rehearsal to judge, 404 when the one named is not kept. ' +
    'Funded as grading is (grader_key, house, plan, trial ping); 402 names what would fund it; 503 with no grader lane. The words leave the deck only to the grader.',
  input: z
    .object({
      stage: z.enum(STAGES).optional().describe('required: parts or rehearsed (a body without it is 400)'),
      text: RuleWords.optional().describe('stage parts: the rule in plain words'),
      seed_hash: SeedHash.optional().describe('stage rehearsed: the seed_hash of your forge'),
      rehearsal_digest: RehearsalToJudge.describe('stage rehearsed: the rehearsal to judge, by its digest; default: the latest rehearsal of this seed on the rule\'s own market'),
      grader_key: GraderKey.optional(),
    })
    .strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  output: ScoreAnswer,
  access: 'session',
  toolset: TOOLSETS.studio,
  rest: { method: 'POST', path: '/studio/score', errors: [400, 402, 404, 409, 413, 502, 503] },
  async run(ctx, input) {
    if (!input.stage) {
      throw new DeckError(400, 'bad_input', 'stage: required, parts or rehearsed', { problems: [{ field: 'stage', message: 'required: parts or rehearsed' }] });
    }
    const ownKey = input.grader_key ?? null;
    const j = input.stage === 'parts' ? await judgeParts(ctx, input.text, ownKey) : await judgeRehearsed(ctx, input.seed_hash, input.rehearsal_digest, ownKey);
    const answers: Answered[] | null = j.spent?.grader.answers ?? null;
    const { score: points, reasons } = scoreOf(j.n, j.facts, answers, j.questions);
    const entry: ScoreEntry = {
      principal_id: ctx.principal.id,
      rubric: RUBRIC_VERSION,
      stage: j.stage,
      subject: j.subject,
      ...(j.judged ? { rehearsal: j.judged.rehearsal } : {}),
      facts: j.facts,
      grader: j.spent?.grader ?? null,
      ...(j.judged ? { shown: j.judged.shown } : {}),
      score: points,
      reasons,
      decision_digest: decisionDigest({ rubric: RUBRIC_VERSION, subject: { stage: j.stage, ...j.subject }, facts: j.facts, answers, outcome: points }),
    };
    const rec = await ctx.store.grades.score(entry, ctx.clock());
    const left = j.spent?.trial_pings_left ?? null;
    return { ok: true, ...receiptOf(entry, rec), ...(left !== null ? { trial_pings_left: left } : {}) };
  },
});
