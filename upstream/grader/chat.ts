import type { ChatMessage, Measured } from '../../engine/grade/index.js';
import { DeckError } from '../../core/errors.js';
import { callJson } from '../http.js';
import { readAnswer } from './answer.js';

/** Samples asked for with every question; used only when the lane gives no log-probabilities. */
export const SAMPLES = 5;
/** How many alternatives of the first token the lane is asked to show. */
export const TOP_LOGPROBS = 5;
/** A question is one short completion; a slow model still answers well inside this. */
const TIMEOUT_MS = 30_000;

const UPSTREAM = 'the grader';

/** Where a decision is asked, with whose key: the funding chose it (upstream/grader/funding.ts). */
export interface GraderLane {
  url: string;
  key: string;
  model: string;
}

/** The body of one closed question, as the OpenAI chat-completions protocol carries it. */
export const requestOf = (model: string, messages: readonly ChatMessage[]) => ({
  model,
  messages,
  max_tokens: 1,
  temperature: 1,
  n: SAMPLES,
  logprobs: true,
  top_logprobs: TOP_LOGPROBS,
});

/** Only the error's type and code are carried: a provider's message may quote the key it was sent. */
export function refusalOf(status: number, body: unknown): Record<string, unknown> {
  const error = typeof body === 'object' && body !== null && 'error' in body ? (body as { error: unknown }).error : null;
  const field = (k: string) => {
    const v = typeof error === 'object' && error !== null ? (error as Record<string, unknown>)[k] : undefined;
    return typeof v === 'string' && /^[\w.-]{1,64}$/.test(v) ? v : null;
  };
  return { status, type: field('type'), code: field('code') };
}

/**
 * One closed question to an OpenAI-compatible lane: POST {url}/chat/completions with the lane's key as bearer.
 * A lane that cannot be reached (network, timeout) is 503 (the spec's "lane unavailable"); an answer outside 2xx is
 * 502 grader_refused carrying only its status, type and code; a refusal in the answer is 502 grader_refused; an
 * answer that is not a distribution over the scale is 502 grader_nonsense.
 */
export async function askClosed(lane: GraderLane, messages: readonly ChatMessage[], ended: AbortSignal): Promise<Measured> {
  const answer = await callJson(UPSTREAM, `${lane.url.replace(/\/$/, '')}/chat/completions`, {
    method: 'POST',
    body: requestOf(lane.model, messages),
    token: lane.key,
    timeoutMs: TIMEOUT_MS,
    ended,
  });
  if (answer.status < 200 || answer.status >= 300) {
    throw new DeckError(502, 'grader_refused', `the grader refused the question (HTTP ${answer.status})`, { upstream: UPSTREAM, grader: refusalOf(answer.status, answer.body) });
  }
  const read = readAnswer(answer.body);
  if (read.ok) return read.measured;
  if (read.kind === 'refused') throw new DeckError(502, 'grader_refused', read.why, { upstream: UPSTREAM });
  throw new DeckError(502, 'grader_nonsense', `the grader answered nonsense: ${read.why}`, { upstream: UPSTREAM });
}
