import { z } from 'zod';
import { TIMEFRAME_SECONDS } from '../../engine/markets.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { badInput } from '../../core/errors.js';
import { int, unixTime } from '../../services/schemas.js';
import { ModelName, myModel } from '../../services/book/books.js';
import { DEFAULT_HOURS, Hours, windowBars, windowEnd } from '../../services/studio/window.js';
import { barsToRows } from '../../engine/bars.js';
import { RunAnswer } from '../../services/agent/answers.js';

/** The most bars a run may step: a month of 1m bars, the longest replay window. */
export const MOST_BARS = 744 * 60;
/** A live run steps a week of 1m bars unless told. */
const LIVE_BUDGET = 7 * 24 * 60;

export const runStart = defineTool({
  name: 'run_start',
  title: 'Run a model',
  description:
    `Runs one of your models against its decide() endpoint. replay: over a past window of the tape (hours, default ${DEFAULT_HOURS}, back from to, default the newest bar the tape holds), the deck steps bar by bar, POSTs each closed bar and the model's position to decide(), and routes each typed-decision.v1 answer into a book of the run's own, marked replay (a replay tests the model; it is never its track record). live: forward on the live tape, each bar once it closes, into the model's live book. Each bar waits timeout_ms for decide() (default 2000), tried again up to retries times on a timeout, a network failure or a 5xx; the run stops after budget_bars bars. A decide() that misbehaves stops the run with the reason; its fills stay. Progress: GET /agent/runs/{id}.`,
  input: z
    .object({
      model: ModelName,
      mode: z.enum(['replay', 'live']),
      hours: Hours,
      to: unixTime.optional().describe("a replay window's end, unix seconds or ISO-8601 UTC, not in the future (default: the newest bar the tape holds)"),
      timeout_ms: int.refine((n) => n >= 100 && n <= 10_000, '100 to 10000').optional().describe('how long decide() may take for one bar (default 2000)'),
      retries: int.refine((n) => n >= 0 && n <= 3, '0 to 3').optional().describe('tries again after a timeout, a network failure or a 5xx (default 1)'),
      budget_bars: int.refine((n) => n >= 1 && n <= MOST_BARS, `1 to ${MOST_BARS}`).optional().describe(`the most bars the run steps (a replay: its window; live: ${LIVE_BUDGET})`),
    })
    .strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  output: RunAnswer,
  access: 'session',
  toolset: TOOLSETS.agent,
  rest: { method: 'POST', path: '/agent/runs', status: 202, errors: [404, 409, 429, 502, 503] },
  async run(ctx, input) {
    const model = myModel(ctx, input.model);
    const common = { mode: input.mode, timeout_ms: input.timeout_ms ?? 2000, retries: input.retries ?? 1 };
    if (input.mode === 'live') {
      const stray = (['hours', 'to'] as const).filter((k) => input[k] !== undefined);
      if (stray.length) throw badInput(stray.map((field) => ({ field, message: 'a live run steps forward from now: it takes no window' })));
      const from = Math.floor(ctx.clock() / 1000 / TIMEFRAME_SECONDS[model.timeframe]) * TIMEFRAME_SECONDS[model.timeframe];
      const run = await ctx.rail.start(ctx, model, { ...common, window: { from, to: null }, budget_bars: input.budget_bars ?? LIVE_BUDGET, bars_total: null }, null);
      return { ok: true, run };
    }
    const to = await windowEnd(ctx, model.market, model.timeframe, input.to);
    const w = await windowBars(ctx, { market: model.market, tf: model.timeframe, to, hours: input.hours ?? DEFAULT_HOURS, warmUpBars: 0 });
    const rows = barsToRows(w.bars);
    const run = await ctx.rail.start(ctx, model, { ...common, window: { from: w.from, to: w.to }, budget_bars: input.budget_bars ?? rows.length, bars_total: rows.length }, rows);
    return { ok: true, run };
  },
});
