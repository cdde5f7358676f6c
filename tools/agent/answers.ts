import { z } from 'zod';
import { CapsSchema } from '../../engine/book/index.js';
import { MARKETS, TIMEFRAMES } from '../../engine/markets.js';
import { answer, UnixS } from '../schemas.js';

// The agent rail's answers, each field as the tool answers it.

/** A model as its operator reads it. */
export const ModelView = z.strictObject({
  name: z.string(),
  id: z.string().describe('owner/name, as the copy seller names it'),
  decide_url: z.url().describe('the decide() endpoint the deck POSTs each closed bar'),
  market: z.enum(MARKETS),
  timeframe: z.enum(TIMEFRAMES),
  caps: CapsSchema.describe("the model's caps, inside yours"),
  synthetic: z.boolean().describe("one of the house's example strategies filling the book: never listed"),
  created_at: z.number().int().describe('unix milliseconds'),
  refused: z.strictObject({ total: z.number().int(), fields: z.record(z.string(), z.number().int()) }).describe('answers the typed lane refused, in all and by the field each named'),
});

/** A run as it stands. */
export const RunView = z.strictObject({
  id: z.string().regex(/^run_[0-9a-f]{16}$/),
  model: z.string(),
  mode: z.enum(['replay', 'live']),
  state: z.enum(['running', 'done', 'stopped']),
  window: z.strictObject({ from: UnixS, to: UnixS.nullable().describe('null for a live run') }),
  timeout_ms: z.number().int(),
  retries: z.number().int(),
  budget_bars: z.number().int(),
  bars_total: z.number().int().nullable().describe('bars in the window (replay); null for a live run'),
  bars_done: z.number().int(),
  last_bar_t: UnixS.nullable(),
  decisions: z.strictObject({ hold: z.number().int(), enter: z.number().int(), exit: z.number().int() }),
  skipped: z.strictObject({ market_closed: z.number().int() }).describe('decisions the book could not take at a bar'),
  orders: z.number().int(),
  fills: z.number().int(),
  retried: z.number().int().describe('decide() calls tried again'),
  decide_ms: z.number().describe('time spent waiting on decide(), in all'),
  started_at: z.number().int().describe('unix milliseconds'),
  ended_at: z.number().int().nullable().describe('unix milliseconds'),
  end: z
    .strictObject({
      code: z.string(),
      message: z.string(),
      bar_t: UnixS.nullable(),
      problems: z.array(z.strictObject({ field: z.string(), message: z.string() })).optional().describe('the fields a refused answer named'),
    })
    .nullable()
    .describe('how the run ended; null while it runs'),
});

export const ModelAnswer = answer({ model: ModelView });
export const ModelsMineAnswer = answer({ models: z.array(ModelView) });
export const RunAnswer = answer({ run: RunView });
export const RunsAnswer = answer({ runs: z.array(RunView).describe('newest first') });
