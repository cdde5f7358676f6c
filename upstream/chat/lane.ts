import { z } from 'zod';
import { DeckError, unreachable } from '../../core/errors.js';
import { refusalOf } from '../grader/chat.js';
import { undici } from '../undici.js';
import { watched } from '../watch.js';

const UPSTREAM = 'the chat lane';

export interface ChatLaneConfig {
  url: string;
  key: string | null;
  model: string;
  timeoutS: number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What the lane answered, whole. */
export interface ChatAnswer {
  model: string;
  text: string;
  finish_reason: string | null;
}

const Completion = z.object({
  model: z.string().optional(),
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }), finish_reason: z.string().nullish() }))
    .min(1),
});

const Chunk = z.object({
  model: z.string().optional(),
  choices: z.array(z.object({ delta: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }).partial().optional(), finish_reason: z.string().nullish() })),
});

const nonsense = (why: string) => new DeckError(502, 'chat_nonsense', `the chat lane answered something that is not a chat completion: ${why}`, { upstream: UPSTREAM });
const refused = () => new DeckError(502, 'chat_refused', 'the model refused to answer', { upstream: UPSTREAM });

/** A completion's whole answer. */
function answerOf(body: unknown, model: string): ChatAnswer {
  const parsed = Completion.safeParse(body);
  if (!parsed.success) throw nonsense('no choices');
  const choice = parsed.data.choices[0]!;
  if (choice.message.refusal) throw refused();
  return { model: parsed.data.model ?? model, text: choice.message.content ?? '', finish_reason: choice.finish_reason ?? null };
}

/**
 * The chat lane: an OpenAI-compatible chat-completions endpoint (POST {url}/chat/completions, the key as the bearer
 * when set). The whole exchange, from asking to the last word, is cut at timeoutS: before the lane answers that is
 * 503 upstream_timeout; a lane that cannot be reached is 503 upstream_unreachable; an answer outside 2xx is 502
 * chat_refused carrying only its status and the error's type and code (a provider's message may quote the key).
 */
export class ChatLane {
  constructor(readonly config: ChatLaneConfig) {}

  /**
   * Asks the lane and answers, once it has begun to answer, the words as they come: each yield is a piece of the
   * text, the return is the whole answer. `stream` asks the lane to send its words as they are made (server-sent
   * events); a lane that answers whole instead is read whole. `cancel` stops the exchange (the caller went away).
   */
  async ask(messages: readonly ChatMessage[], opts: { maxTokens?: number; stream: boolean; cancel?: AbortSignal }): Promise<AsyncGenerator<string, ChatAnswer>> {
    const { url, key, model, timeoutS } = this.config;
    const deadline = AbortSignal.timeout(timeoutS * 1000);
    const signal = opts.cancel ? AbortSignal.any([deadline, opts.cancel]) : deadline;
    const failed = (error: unknown): DeckError =>
      error instanceof DeckError
        ? error
        : deadline.aborted
          ? new DeckError(503, 'upstream_timeout', `the chat lane did not answer within ${timeoutS} s; nothing was spent`, { upstream: UPSTREAM, timeout_s: timeoutS })
          : unreachable(UPSTREAM, (error as Error).message);
    let res;
    try {
      res = await watched(UPSTREAM, async () =>
        (await undici()).request(`${url.replace(/\/$/, '')}/chat/completions`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: opts.stream ? 'text/event-stream, application/json' : 'application/json',
            ...(key ? { authorization: `Bearer ${key}` } : {}),
          },
          body: JSON.stringify({ model, messages, ...(opts.maxTokens ? { max_tokens: opts.maxTokens } : {}), ...(opts.stream ? { stream: true } : {}) }),
          signal,
        }),
      );
    } catch (error) {
      throw failed(error);
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      const text = await res.body.text().catch(() => '');
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: only the status is carried.
      }
      throw new DeckError(502, 'chat_refused', `the chat lane refused the request (HTTP ${res.statusCode})`, { upstream: UPSTREAM, lane: refusalOf(res.statusCode, body) });
    }
    const events = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
    const body = res.body;
    return (async function* words(): AsyncGenerator<string, ChatAnswer> {
      try {
        if (!events) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(await body.text());
          } catch (error) {
            if (signal.aborted) throw error;
            throw nonsense('not JSON');
          }
          const whole = answerOf(parsed, model);
          if (whole.text) yield whole.text;
          return whole;
        }
        const decoder = new TextDecoder();
        let text = '';
        let finish: string | null = null;
        let answeredBy = model;
        let rest = '';
        for await (const chunk of body as AsyncIterable<Buffer>) {
          const lines = (rest + decoder.decode(chunk, { stream: true })).split('\n');
          rest = lines.pop()!;
          for (const raw of lines) {
            const line = raw.trimEnd();
            if (!line.startsWith('data:')) continue;
            const data = line.slice(5).trim();
            if (data === '[DONE]') return { model: answeredBy, text, finish_reason: finish };
            let piece;
            try {
              piece = Chunk.safeParse(JSON.parse(data));
            } catch {
              throw nonsense('an event that is not JSON');
            }
            if (!piece.success) throw nonsense('an event without choices');
            answeredBy = piece.data.model ?? answeredBy;
            const choice = piece.data.choices[0];
            if (choice?.delta?.refusal) throw refused();
            finish = choice?.finish_reason ?? finish;
            const word = choice?.delta?.content;
            if (word) {
              text += word;
              yield word;
            }
          }
        }
        // The stream ended without [DONE]: the answer is whole only if the lane said why it finished.
        if (finish === null) throw nonsense('the stream ended before the answer did');
        return { model: answeredBy, text, finish_reason: finish };
      } catch (error) {
        throw failed(error);
      } finally {
        body.destroy();
      }
    })();
  }
}
