import { createHash } from 'node:crypto';
import { canonicalJson } from '../decider/canonical.js';
import type { Fact } from './facts.js';
import type { ClosedQuestion } from './questions.js';
import type { Distribution } from './scale.js';

/** The rubric every grade and score is composed under (RUBRIC_v1.md). */
export const RUBRIC_VERSION = 'RUBRIC_v1';

/** A question holds when the grader puts at least this much on yes. */
export const HOLDS_AT = 0.7;
/** A question fails when the grader puts at least this much on no. */
export const FAILS_AT = 0.5;

export type Verdict = 'holds' | 'unsure' | 'fails';
/** What a grade decides, in this order. */
export const DECISIONS = ['accept', 'revise', 'reject'] as const;
export type Decision = (typeof DECISIONS)[number];

/** How a distribution came back: the first token's log-probabilities, or counted samples (RUBRIC_v1.md). */
export interface Measured {
  distribution: Distribution;
  source: 'logprobs' | 'samples';
  /** Samples counted (samples only). */
  samples: number | null;
}

/** One closed question as asked and answered, with the verdict code reads from its distribution. */
export interface Answered extends Measured {
  id: string;
  question: string;
  verdict: Verdict;
}

export const verdictOf = (d: Distribution): Verdict => (d.no >= FAILS_AT ? 'fails' : d.yes >= HOLDS_AT ? 'holds' : 'unsure');

export const answered = (q: ClosedQuestion, m: Measured): Answered => ({ id: q.id, question: q.text, ...m, verdict: verdictOf(m.distribution) });

const shown = (d: Distribution): string => `yes ${d.yes}, partly ${d.partly}, no ${d.no}`;

/** A question's reason, written by code from its distribution, never by the grader. */
function reasonOf(a: Answered, questions: readonly ClosedQuestion[]): string {
  const q = questions.find((x) => x.id === a.id)!;
  if (a.verdict === 'holds') return `${a.id}: holds (${shown(a.distribution)})`;
  if (a.verdict === 'fails') return `${a.id}: fails, ${q.unfaithful} (${shown(a.distribution)})`;
  return `${a.id}: unsure, less than ${HOLDS_AT} on yes and less than ${FAILS_AT} on no (${shown(a.distribution)})`;
}

const failedFacts = (facts: readonly Fact[]): string[] => facts.filter((f) => !f.held).map((f) => `${f.name}: ${f.detail}`);

/**
 * The decision of a grade: reject when a fact failed (the grader is never asked) or when any question fails;
 * accept when every question holds; revise otherwise.
 */
export function decide(
  facts: readonly Fact[],
  answers: readonly Answered[] | null,
  questions: readonly ClosedQuestion[],
): { decision: Decision; reasons: string[] } {
  const failed = failedFacts(facts);
  if (failed.length > 0 || answers === null) return { decision: 'reject', reasons: failed };
  const reasons = answers.map((a) => reasonOf(a, questions));
  const decision = answers.some((a) => a.verdict === 'fails') ? 'reject' : answers.every((a) => a.verdict === 'holds') ? 'accept' : 'revise';
  return { decision, reasons };
}

export interface Score {
  k: number;
  n: number;
  value: number;
}

/**
 * A score: k of n points, a point for each question asked that holds (stage parts: n = 7, one per part; stage
 * rehearsed: n = 4). A question not asked because its fact failed scores 0. value = k / n to four decimals. The
 * reasons: every failed fact, then every question asked.
 */
export function scoreOf(
  n: number,
  facts: readonly Fact[],
  answers: readonly Answered[] | null,
  questions: readonly ClosedQuestion[],
): { score: Score; reasons: string[] } {
  const k = (answers ?? []).filter((a) => a.verdict === 'holds').length;
  const reasons = [...failedFacts(facts), ...(answers ?? []).map((a) => reasonOf(a, questions))];
  return { score: { k, n, value: Math.round((k / n) * 1e4) / 1e4 }, reasons };
}

/**
 * The decision digest: sha256 of the canonical JSON of what the decision was composed from and what it is (the
 * rubric, the subject, the facts, every distribution, the decision). No time, funding or model is in it: the same
 * facts and distributions give the same digest.
 */
export function decisionDigest(content: {
  rubric: string;
  subject: Record<string, string>;
  facts: readonly Fact[];
  answers: readonly { id: string; distribution: Distribution }[] | null;
  outcome: unknown;
}): string {
  const body = {
    ...content,
    facts: content.facts.map((f) => ({ name: f.name, held: f.held })),
    answers: content.answers?.map((a) => ({ id: a.id, distribution: a.distribution })) ?? null,
  };
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
