/**
 * The answer scale of every closed question (RUBRIC_v1.md): yes, partly, no. A distribution is the grader's
 * probability of each answer, normalized over the three and rounded to four decimals, so the code that composes
 * a decision reads the same numbers the receipt shows.
 */
export const ANSWERS = ['yes', 'partly', 'no'] as const;
export type Answer = (typeof ANSWERS)[number];
export type Distribution = Record<Answer, number>;

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/** Weights over the scale (probabilities or counts) as a distribution; null when they hold no weight at all. */
export function distributionOf(weights: Readonly<Distribution>): Distribution | null {
  const total = weights.yes + weights.partly + weights.no;
  if (!(total > 0) || !Number.isFinite(total)) return null;
  return { yes: round4(weights.yes / total), partly: round4(weights.partly / total), no: round4(weights.no / total) };
}

/**
 * The answer a word (or the first token of one) stands for: its letters, lower-cased, must be a scale word or
 * the start of exactly one ("Yes", " no.", "part" of a cut-off "partly"). Anything else stands for none.
 */
export function answerOf(word: string): Answer | null {
  const letters = word.toLowerCase().replace(/[^a-z]/g, '');
  if (!letters) return null;
  const found = ANSWERS.filter((a) => a.startsWith(letters));
  return found.length === 1 ? found[0]! : null;
}
