import { z } from 'zod';
import type { ChatAnswer } from '../../upstream/chat/lane.js';
import { defineTool, EventStream } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { notConfigured } from '../../core/errors.js';
import { recordSpend, type Recorded } from '../../services/meter/spend.js';
import { answer } from '../../services/schemas.js';

const Message = z
  .object({
    role: z.enum(['system', 'user', 'assistant']),
    content: z.string().min(1).max(32_000),
  })
  .strict();

/** What every answer of the lane says of itself: whose words these are. */
const labelOf = (model: string) => ({
  by: 'model' as const,
  model,
  notice: `These are a model's words (${model}, through the chat lane), not the deck's: nothing here is read from the venue, the tape or the deck's ledgers, and the deck keeps none of it.`,
});

const answerOf = (a: ChatAnswer, spent: Recorded | null) => ({
  ok: true as const,
  ...labelOf(a.model),
  message: { role: 'assistant' as const, content: a.text },
  finish_reason: a.finish_reason,
  spent: spent && { action: spent.action, units: spent.units },
});

export const chat = defineTool({
  name: 'chat',
  title: 'Ask the chat lane',
  description:
    "Asks the house's chat model (an OpenAI-compatible lane) and answers its words, labelled as a model's words (by: model): they are not the deck's, are read from nothing the deck holds, and are never written into a ledger. " +
    'Calls go through a fair queue: each principal has its own lane, served in turn with everyone else\'s, so a busy caller cannot starve the rest; a full lane of yours is 429 with Retry-After. ' +
    'stream: true sends the words as server-sent events as they are made (REST; MCP answers once, whole). An answer is recorded on the meter (chat) only once it is whole; a lane that does not answer within DECK_CHAT_TIMEOUT_S is cut (503 upstream_timeout) with nothing spent.',
  input: z
    .object({
      messages: z.array(Message).min(1).max(64).describe('the conversation, oldest first, in the chat-completions form'),
      stream: z.boolean().optional().describe('true: send the words as server-sent events as they are made'),
      max_tokens: z.number().int().min(1).max(8192).optional(),
    })
    .strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  access: 'session',
  output: answer({
    by: z.literal('model').describe("these are a model's words, not the deck's"),
    model: z.string(),
    notice: z.string(),
    message: z.object({ role: z.literal('assistant'), content: z.string() }),
    finish_reason: z.string().nullable(),
    spent: z.object({ action: z.string(), units: z.number() }).nullable().describe('what the answer cost on the meter'),
  }),
  toolset: TOOLSETS.chat,
  rest: { method: 'POST', path: '/chat', errors: [429, 502, 503], maxBody: 512 * 1024 },
  async run(ctx, { messages, stream, max_tokens }) {
    const lane = ctx.upstreams.chat;
    if (!lane) throw notConfigured('the chat lane', 'DECK_CHAT_URL and DECK_CHAT_MODEL (and DECK_CHAT_KEY when the lane needs a key)');
    const release = await ctx.chatQueue.turn(ctx.principal.id);
    let words;
    try {
      // The lane is asked for this request alone: a caller that goes away, streaming or not, stops it.
      words = await lane.ask(messages, { stream: stream === true, cancel: ctx.ended(), ...(max_tokens ? { maxTokens: max_tokens } : {}) });
    } catch (error) {
      release();
      throw error;
    }
    if (!stream) {
      try {
        let next = await words.next();
        while (!next.done) next = await words.next();
        return answerOf(next.value, await recordSpend(ctx, 'chat'));
      } finally {
        release();
      }
    }
    const asked = words;
    // The turn is held until the last word is sent or the caller goes away.
    return new EventStream(
      (async function* () {
        try {
          yield { event: 'label', data: labelOf(lane.config.model) };
          let next = await asked.next();
          while (!next.done) {
            yield { event: 'words', data: { text: next.value } };
            next = await asked.next();
          }
          return answerOf(next.value, await recordSpend(ctx, 'chat'));
        } finally {
          release();
          await asked.return(undefined as never);
        }
      })(),
    );
  },
});
