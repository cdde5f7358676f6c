import type { PartName } from '../reader/schema.js';

/**
 * The closed questions of RUBRIC_v1 (RUBRIC_v1.md states them with the scale and the composition). Every one asks
 * about fidelity to the trader's words and is phrased so that yes is faithful; none asks whether a rule would make
 * money. `id` is how the receipt and the grader's prompt name the question.
 */
export interface ClosedQuestion {
  id: string;
  text: string;
  /** What a "no" means, in the words a reason gives. */
  unfaithful: string;
}

/** Grade: the rule as forged against the words, one question per part and one for anything added. */
export const GRADE_QUESTIONS: readonly ClosedQuestion[] = [
  { id: 'market', text: 'Does the rule trade the market the words name?', unfaithful: 'the rule trades another market than the words name' },
  { id: 'timeframe', text: 'Does the rule read bars of the timeframe the words name?', unfaithful: 'the rule reads another timeframe than the words name' },
  { id: 'session', text: 'Does the rule act only at the times the words allow, and at all of them?', unfaithful: 'the rule acts at other times than the words allow' },
  { id: 'side', text: 'Does the rule take the side or sides the words say (long, short or both)?', unfaithful: 'the rule takes another side than the words say' },
  { id: 'entry', text: 'Does the entry do what the words say: the same trigger, the same indicators and lengths, the same levels?', unfaithful: 'the entry does not do what the words say' },
  { id: 'stop', text: 'Does the stop sit where the words say: the same distance or level, in the same unit?', unfaithful: 'the stop does not sit where the words say' },
  { id: 'exit', text: 'Does the exit do what the words say: the same target, trail, time exit or exit condition?', unfaithful: 'the exit does not do what the words say' },
  { id: 'nothing_added', text: 'Is the rule free of anything the words do not say: no added condition, filter, level, number or exit?', unfaithful: 'the rule adds something the words do not say' },
];

/** Score, stage parts: one question per part the deck read, about that reading. */
export const partQuestion = (part: PartName): ClosedQuestion => ({
  id: part,
  text: `Does this reading of the ${part} say what the words say, no more and no less?`,
  unfaithful: `the reading of the ${part} does not say what the words say`,
});

/** Score, stage rehearsed: the trades of the rehearsal against the words. */
export const REHEARSED_QUESTIONS: readonly ClosedQuestion[] = [
  { id: 'entries', text: 'Do these trades enter when the words say to enter: the trigger, the side and the time of day?', unfaithful: 'the trades enter when the words do not say to' },
  { id: 'stops', text: 'Does each trade\'s stop sit where the words say?', unfaithful: 'the trades\' stops do not sit where the words say' },
  { id: 'exits', text: 'Does each trade leave the way the words say?', unfaithful: 'the trades do not leave the way the words say' },
  { id: 'nothing_added', text: 'Are these trades free of anything the words do not say: no entries, holds or exits the words do not give?', unfaithful: 'the trades show something the words do not say' },
];
