import { describe, expect, it } from 'vitest';
import { answered, decide, decisionDigest, FAILS_AT, HOLDS_AT, RUBRIC_VERSION, scoreOf, verdictOf, type Answered } from './compose.js';
import type { Fact } from './facts.js';
import { GRADE_QUESTIONS, REHEARSED_QUESTIONS } from './questions.js';
import type { Distribution } from './scale.js';

const d = (yes: number, partly: number, no: number): Distribution => ({ yes, partly, no });
const FAITHFUL = d(0.9, 0.07, 0.03);
const HELD: Fact[] = [{ name: 'seven_parts', held: true, detail: 'all seven' }];

/** Every grade question answered FAITHFUL, but the ones listed. */
const answers = (over: Record<string, Distribution> = {}): Answered[] =>
  GRADE_QUESTIONS.map((q) => answered(q, { distribution: over[q.id] ?? FAITHFUL, source: 'logprobs', samples: null }));

describe('a verdict from a distribution, at the fixed thresholds', () => {
  it(`holds at ${HOLDS_AT} on yes, fails at ${FAILS_AT} on no, else is unsure`, () => {
    expect(verdictOf(d(0.7, 0.3, 0))).toBe('holds');
    expect(verdictOf(d(0.6999, 0.3001, 0))).toBe('unsure');
    expect(verdictOf(d(0.3, 0.2, 0.5))).toBe('fails');
    expect(verdictOf(d(0.3, 0.2001, 0.4999))).toBe('unsure');
    expect(verdictOf(d(0, 1, 0))).toBe('unsure');
  });
});

describe('the decision of a grade', () => {
  it('accepts when every question holds', () => {
    const { decision, reasons } = decide(HELD, answers(), GRADE_QUESTIONS);
    expect(decision).toBe('accept');
    expect(reasons).toHaveLength(GRADE_QUESTIONS.length);
    expect(reasons[5]).toBe('stop: holds (yes 0.9, partly 0.07, no 0.03)');
  });

  it('revises when a question is unsure and none fails', () => {
    const { decision, reasons } = decide(HELD, answers({ entry: d(0.5, 0.4, 0.1) }), GRADE_QUESTIONS);
    expect(decision).toBe('revise');
    expect(reasons[4]).toBe('entry: unsure, less than 0.7 on yes and less than 0.5 on no (yes 0.5, partly 0.4, no 0.1)');
  });

  it('rejects when any question fails, whatever the others say', () => {
    const { decision, reasons } = decide(HELD, answers({ stop: d(0.05, 0.1, 0.85), entry: d(0.5, 0.4, 0.1) }), GRADE_QUESTIONS);
    expect(decision).toBe('reject');
    expect(reasons[5]).toBe('stop: fails, the stop does not sit where the words say (yes 0.05, partly 0.1, no 0.85)');
  });

  it('rejects on a failed fact with no answers, its reasons the failed facts', () => {
    const facts: Fact[] = [...HELD, { name: 'rehearsed', held: false, detail: 'no rehearsal' }];
    expect(decide(facts, null, GRADE_QUESTIONS)).toEqual({ decision: 'reject', reasons: ['rehearsed: no rehearsal'] });
  });
});

describe('the decision digest', () => {
  const subject = { seed_hash: 'a'.repeat(64), version: 'forge.decider.v1', words_sha256: 'b'.repeat(64) };
  const digestOf = (a: Answered[]) => decisionDigest({ rubric: RUBRIC_VERSION, subject, facts: HELD, answers: a, outcome: decide(HELD, a, GRADE_QUESTIONS).decision });

  it('is the same for the same facts and distributions, whatever the source, and is sha256 hex', () => {
    const again = answers().map((a) => ({ ...a, source: 'samples' as const, samples: 5 }));
    expect(digestOf(answers())).toMatch(/^[0-9a-f]{64}$/);
    expect(digestOf(answers())).toBe(digestOf(again));
  });

  it('changes with a distribution, a fact or the subject', () => {
    const base = digestOf(answers());
    expect(digestOf(answers({ market: d(0.9, 0.08, 0.02) }))).not.toBe(base);
    const facts = [{ ...HELD[0]!, held: false }];
    expect(decisionDigest({ rubric: RUBRIC_VERSION, subject, facts, answers: answers(), outcome: 'accept' })).not.toBe(base);
    expect(decisionDigest({ rubric: RUBRIC_VERSION, subject: { ...subject, version: 'v2' }, facts: HELD, answers: answers(), outcome: 'accept' })).not.toBe(base);
  });
});

describe('a score', () => {
  it('counts a point for each question that holds, out of the stage\'s points', () => {
    const asked = REHEARSED_QUESTIONS.map((q, i) => answered(q, { distribution: i === 2 ? d(0.2, 0.2, 0.6) : FAITHFUL, source: 'logprobs', samples: null }));
    const { score, reasons } = scoreOf(4, HELD, asked, REHEARSED_QUESTIONS);
    expect(score).toEqual({ k: 3, n: 4, value: 0.75 });
    expect(reasons[2]).toBe('exits: fails, the trades do not leave the way the words say (yes 0.2, partly 0.2, no 0.6)');
  });

  it('is 0 with the failed facts as reasons when nothing was asked', () => {
    const facts: Fact[] = [{ name: 'traded', held: false, detail: 'no trade' }];
    expect(scoreOf(4, facts, null, REHEARSED_QUESTIONS)).toEqual({ score: { k: 0, n: 4, value: 0 }, reasons: ['traded: no trade'] });
  });
});
