import { barsToRows, windowOf } from '../../engine/bars.js';
import type { Market, Timeframe } from '../../engine/markets.js';
import { defineTool, JsonBytes } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { int } from '../../services/schemas.js';
import { candleWindow, MAX_BARS, TapeRequest, TapeAnswer, MCP_BARS, meterRead, type CandleWindow } from '../../services/tape/candle-window.js';

const Limit = int.refine((n) => n >= 1 && n <= MAX_BARS, `1 to ${MAX_BARS}`);

/**
 * The first `limit` bars of a window, with a summary of the whole window (its open, high, low, close and volume) and
 * where the rest begins, read from its columns. The coverage still states the whole window; the meter counts the bars
 * shown.
 */
function firstBars(window: CandleWindow, { market, tf, from, to }: { market: Market; tf: Timeframe; from: number; to: number }, limit: number): TapeAnswer {
  const bars = window.bars();
  const n = bars.length;
  let high = -Infinity;
  let low = Infinity;
  let volume = 0;
  for (let i = 0; i < n; i++) {
    high = Math.max(high, bars.h[i]!);
    low = Math.min(low, bars.l[i]!);
    volume += bars.v[i]!;
  }
  const shown = windowOf(bars, 0, Math.min(limit, n));
  const whole = n === 0 ? null : { open: bars.o[0]!, high, low, close: bars.c[n - 1]!, volume };
  return {
    ok: true,
    market,
    tf,
    from,
    to,
    candles: barsToRows(shown),
    coverage: window.coverage,
    summary: { bars: n, shown: shown.length, ...whole },
    more: limit < n ? { bars: n - limit, from: bars.t[limit]! } : null,
  };
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
    const window = await candleWindow(ctx, request);
    const whole = window.coverage.bars;
    return { window, request, whole, served: limit !== undefined && limit < whole ? limit : whole };
  },
  bars: ({ served }) => served,
  async run(ctx, _input, { window, request, whole, served }) {
    meterRead(ctx, served);
    return served < whole ? firstBars(window, request, served) : new JsonBytes(window.bytes());
  },
});
