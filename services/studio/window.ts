import { concatBars, firstAtOrAfter, type Bars } from '../../engine/bars.js';
import { warmStart } from '../../engine/calendar.js';
import { TIMEFRAME_SECONDS, TIMEFRAMES, type Market, type Timeframe } from '../../engine/markets.js';
import type { Ctx } from '../context.js';
import { badInput, DeckError } from '../../core/errors.js';
import { refuseNotHeld, refuseOutsideHeld } from '../tape/held.js';
import { int } from '../schemas.js';
import { candleWindow, MAX_BARS } from '../tape/candle-window.js';

/** A trial or rehearsal looks back a week unless told otherwise (the venue keeps about seven days). */
export const DEFAULT_HOURS = 168;
/** At most 31 days: 44,640 1m bars, a month of the tape. */
const MAX_HOURS = 744;

export const Hours = int
  .refine((h) => h >= 1 && h <= MAX_HOURS, `1 to ${MAX_HOURS} hours`)
  .optional()
  .describe(`hours of tape the window holds, counted back from its end; default ${DEFAULT_HOURS}, at most ${MAX_HOURS}`);

/** How far back the venue is asked for its newest bars: the last hour, then four days (a CME weekend and a holiday). */
const PROBES_S = [3600, 4 * 86_400];

/** The timeframes a bar of tf can be read or built from, tf first. */
const buildableFrom = (tf: Timeframe): Timeframe[] =>
  TIMEFRAMES.filter((t) => TIMEFRAME_SECONDS[t] <= TIMEFRAME_SECONDS[tf] && TIMEFRAME_SECONDS[tf] % TIMEFRAME_SECONDS[t] === 0);

/** The close of the newest bar the archive keeps for the market at tf or a finer timeframe, or null. */
async function newestClose(ctx: Ctx, market: Market, tf: Timeframe): Promise<number | null> {
  let close: number | null = null;
  for (const t of buildableFrom(tf)) {
    const row = await ctx.store.archive.newest(market, t);
    if (row) close = Math.max(close ?? -Infinity, row[0] + TIMEFRAME_SECONDS[t]);
  }
  return close;
}

/**
 * The end of a window, on the bar grid: `to` when given (not in the future), else the close of the newest bar the
 * tape holds for the market, so archived history can be rehearsed. With a venue configured that serves the market
 * it is first asked for its latest bars (the last hour, else the last four days), which the archive keeps; then the archive is read.
 * A market the tape cannot serve at all (no bars held to read or build tf from, and no venue that serves it) is 422
 * naming the market and what is held.
 */
export async function windowEnd(ctx: Ctx, market: Market, tf: Timeframe, to: number | undefined): Promise<number> {
  const len = TIMEFRAME_SECONDS[tf];
  const now = Math.floor(ctx.clock() / 1000);
  await refuseNotHeld(ctx, market, tf);
  if (to !== undefined) {
    if (to > now) throw badInput([{ field: 'to', message: 'the tape holds the past only: to must not be in the future' }]);
    return Math.floor(to / len) * len;
  }
  if (ctx.upstreams.tape.asksVenue(market)) {
    for (const span of PROBES_S) {
      const w = await ctx.upstreams.tape.window(market, tf, now - span, now, true, () => false);
      if (w.bars.length > 0) break;
    }
  }
  const close = await newestClose(ctx, market, tf);
  if (close === null) {
    throw ctx.upstreams.tape.refusal(market) ?? badInput([{ field: 'market', message: `the tape holds no ${tf} bars of ${market}, nor finer bars to build them from` }]);
  }
  return Math.floor(close / len) * len;
}

export interface WindowBars {
  bars: Bars;
  /** The first bar that may trade; the bars before it warm the series. */
  from: number;
  to: number;
}

/**
 * The bars of [to - hours, to) and the warm-up before it, read through the tape tool in parts of at most its
 * MAX_BARS, so every part is a sealed window (a replay session id reads fresh from the venue instead).
 */
export async function windowBars(
  ctx: Ctx,
  w: { market: Market; tf: Timeframe; to: number; hours: number; warmUpBars: number; session?: string | undefined },
): Promise<WindowBars> {
  const len = TIMEFRAME_SECONDS[w.tf];
  const from = w.to - w.hours * 3600;
  const start = warmStart(w.market, from, w.warmUpBars * len, len);
  const parts: Bars[] = [];
  for (let a = start; a < w.to; a += MAX_BARS * len) {
    const b = Math.min(w.to, a + MAX_BARS * len);
    const got = await candleWindow(ctx, { market: w.market, tf: w.tf, from: a, to: b, ...(w.session ? { session: w.session } : {}) }).catch(async (e: unknown) => {
      // With no venue, a window the archive knows nothing of is a window the tape does not serve: say what it holds.
      if (e instanceof DeckError && e.code === 'upstream_not_configured' && !ctx.upstreams.tape.venueSource) return refuseOutsideHeld(ctx, w.market, w.tf, { from, to: w.to });
      throw e;
    });
    parts.push(got.bars());
  }
  // On shared memory: the work pool's thread reads the window where it lies, nothing copied.
  const bars = concatBars(parts, true);
  const trading = bars.length - firstAtOrAfter(bars.t, from);
  if (trading < 2) {
    throw new DeckError(422, 'bad_window', `the tape holds ${trading} ${w.tf} bar(s) of ${w.market} in the window; a rehearsal needs two or more`, {
      problems: [{ field: 'hours', message: 'the window holds fewer than two bars' }],
      window: { from, to: w.to },
    });
  }
  return { bars, from, to: w.to };
}
