import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { int } from '../../services/schemas.js';
import { coverageIn } from '../../services/tape/served.js';
import { MAX_BARS, TapeRequest, readCandles, TapeAnswer, MCP_BARS, meterRead } from '../../services/tape/candle-window.js';

const Limit = int.refine((n) => n >= 1 && n <= MAX_BARS, `1 to ${MAX_BARS}`);

/**
 * The first `limit` bars of an answer, with a summary of the whole window (its open, high, low, close and volume) and
 * where the rest begins. The coverage still states the whole window; the meter counts the bars shown.
 */
function firstBars(bytes: Buffer, limit: number): TapeAnswer {
  const whole = JSON.parse(bytes.toString('utf8')) as TapeAnswer;
  const rows = whole.candles;
  const shown = rows.slice(0, limit);
  const next = rows[limit];
  const window =
    rows.length === 0
      ? null
      : {
          open: rows[0]!.o,
          high: rows.reduce((h, r) => Math.max(h, r.h), -Infinity),
          low: rows.reduce((l, r) => Math.min(l, r.l), Infinity),
          close: rows.at(-1)!.c,
          volume: rows.reduce((v, r) => v + r.v, 0),
        };
  return { ...whole, candles: shown, summary: { bars: rows.length, shown: shown.length, ...window }, more: next ? { bars: rows.length - limit, from: next.t } : null };
}

export const tape = defineTool({
  name: 'tape',
  title: 'Candles from the tape',
  description:
    `Real OHLCV bars of NQ, ES, YM, BTC, ETH or SOL at 15s, 1m, 5m or 1h for a past window [from, to) (unix seconds), at most ${MAX_BARS} bars, with a coverage object that states what was measured. Only bars closed by to are served: a to inside a bar stops before that bar. A past window is sealed once every bar of it is measured: the same request then returns the same bytes. A session id bypasses every cache. Over MCP the first ${MCP_BARS} bars come with a summary of the whole window and more.from (limit changes it). NQ, ES and YM follow the CME session: no bar falls in a halt, and a halt counts as closed market, not missing data. Each read is recorded on your meter by the bars it serves.`,
  input: TapeRequest.extend({
    limit: Limit.optional().describe(`at most this many bars, from the window's start, with a summary of the whole window and more.from, where the rest begins (ask again from there); over MCP ${MCP_BARS} unless told`),
  }),
  mcpDefaults: { limit: MCP_BARS },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: 'session',
  output: TapeAnswer,
  toolset: TOOLSETS.tape,
  rest: { method: 'GET', path: '/timetravel/candles/:market/:tf', errors: [502, 503] },
  // The window is read before anything is paid: a window the tape does not hold is refused first, and a price by bars
  // (x402's upto) settles for exactly the bars served.
  async foresee(ctx, { limit, ...request }) {
    const answer = await readCandles(ctx, request);
    const whole = coverageIn(answer.bytes).bars;
    return { answer, whole, served: limit !== undefined && limit < whole ? limit : whole };
  },
  bars: ({ served }) => served,
  async run(ctx, _input, { answer, whole, served }) {
    meterRead(ctx, served);
    return served < whole ? firstBars(answer.bytes, served) : answer;
  },
});
