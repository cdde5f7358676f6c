import { z } from 'zod';
import { ANSWERS, answerOf, distributionOf, type Answer, type Distribution, type Measured } from '../../engine/grade/index.js';

/**
 * Reading a chat-completions answer into a distribution over the scale (RUBRIC_v1.md, "How a distribution is
 * obtained"):
 * - logprobs: when the first choice carries log-probabilities, the first generated token's top_logprobs are mapped
 *   to the scale (answerOf), the probability of each answer summed and normalized over the scale. At least half of
 *   the probability must fall on the scale, else the answer is nonsense.
 * - samples: otherwise every choice's first word is an answer (the request asks for n samples); the counts are the
 *   distribution. At least half of the samples must be on the scale, else the answer is nonsense.
 * A choice carrying a refusal is a refusal, whatever else it carries.
 */
const TopLogprob = z.object({ token: z.string(), logprob: z.number() });
const Choice = z.object({
  message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }),
  logprobs: z.object({ content: z.array(z.object({ token: z.string(), logprob: z.number(), top_logprobs: z.array(TopLogprob).nullish() })).nullish() }).nullish(),
});
const Completion = z.object({ choices: z.array(Choice).min(1) });

/** The least share of the answer that must fall on the scale. */
export const MIN_ON_SCALE = 0.5;

export type Read = { ok: true; measured: Measured } | { ok: false; kind: 'refused' | 'nonsense'; why: string };

const zero = (): Distribution => ({ yes: 0, partly: 0, no: 0 });
const nonsense = (why: string): Read => ({ ok: false, kind: 'nonsense', why });

export function readAnswer(body: unknown): Read {
  const parsed = Completion.safeParse(body);
  if (!parsed.success) return nonsense('the answer is not a chat completion with choices');
  const choices = parsed.data.choices;
  if (choices.some((c) => c.message.refusal)) return { ok: false, kind: 'refused', why: 'the grader refused the question' };

  const top = choices[0]!.logprobs?.content?.[0]?.top_logprobs;
  if (top && top.length > 0) {
    const mass = zero();
    for (const t of top) {
      const a = answerOf(t.token);
      if (a) mass[a] += Math.exp(t.logprob);
    }
    const on = ANSWERS.reduce((s, a) => s + mass[a], 0);
    if (!(on >= MIN_ON_SCALE)) return nonsense(`only ${on.toFixed(3)} of the first token's probability is yes, partly or no`);
    return { ok: true, measured: { distribution: distributionOf(mass)!, source: 'logprobs', samples: null } };
  }

  const counts = zero();
  let counted = 0;
  for (const c of choices) {
    const first = (c.message.content ?? '').trim().split(/\s+/)[0] ?? '';
    const a: Answer | null = answerOf(first);
    if (a) {
      counts[a] += 1;
      counted += 1;
    }
  }
  if (counted === 0 || counted < MIN_ON_SCALE * choices.length) return nonsense(`${counted} of ${choices.length} samples answer yes, partly or no`);
  return { ok: true, measured: { distribution: distributionOf(counts)!, source: 'samples', samples: choices.length } };
}
