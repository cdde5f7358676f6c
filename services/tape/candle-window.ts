import { z } from 'zod';
import { barsToRows, barsWhere, type Bars } from '../../engine/bars.js';
import { isOpen } from '../../engine/calendar.js';
import { coverage, isFinal, sealHolds } from '../../engine/coverage.js';
import { MARKETS, TIMEFRAME_SECONDS, TIMEFRAMES } from '../../engine/markets.js';
import { knownWhole } from '../../upstream/tape/tape.js';
import type { Ctx, SessionCtx } from '../context.js';
import { badInput } from '../../core/errors.js';
import { answer, unixTime } from '../schemas.js';
import { recordSpend } from '../meter/spend.js';
import { Candle, ServedCoverage } from './candles-schema.js';
import { coverageIn } from './served.js';
import { candleColumns, knowColumns } from './columns.js';

/** The most bars one answer carries: seven days of 1m bars fit (10,080), longer windows are asked in parts. */
export const MAX_BARS = 20_000;

export const TapeRequest = z
  .object({
    market: z.enum(MARKETS),
    tf: z.enum(TIMEFRAMES),
    from: unixTime.describe('window start: unix seconds or ISO-8601 UTC'),
    to: unixTime.describe('window end (exclusive): unix seconds or ISO-8601 UTC, not in the future: a bar is served once it has closed by to'),
    session: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, '1 to 64 of A-Z a-z 0-9 _ -').optional().describe('a replay session id: bypasses every cache'),
  })
  .strict();

/**
 * The candles of a past window and their coverage, as the bytes served: the bars closed by `to` (the tape's rule, so a
 * `to` inside a bar shows nothing after it). A window is sealed once its answer is final (every expected bar
 * measured: served or known absent); until then it is answered afresh, so bars that arrive later are seen. A seal
 * kept from before these rules that no longer holds (its coverage not final, or a `to` inside a bar whose bar it
 * served) is dropped and answered afresh.
 * Nothing is metered here: a read through the tape tool is, and a plate's or a rehearsal's price covers its bars.
 * A reader that steps over the bars takes them as columns (`bars`), never parsed back from the answer's bytes: a
 * sealed window's are parsed once while the seals keep it (candleColumns), a fresh one's are the tape's own, and its
 * bytes are made only when sealed or asked.
 */
export async function candleWindow(ctx: Ctx, { market, tf, from, to, session }: z.output<typeof TapeRequest>): Promise<CandleWindow> {
  const now = Math.floor(ctx.clock() / 1000);
  const len = TIMEFRAME_SECONDS[tf];
  if (from >= to) throw badInput([{ field: 'from', message: 'must be before to' }]);
  if (to > now) throw badInput([{ field: 'to', message: 'the tape serves past windows only: to must not be in the future' }]);
  if ((to - from) / len > MAX_BARS) throw badInput([{ field: 'to', message: `at most ${MAX_BARS} ${tf} bars per answer` }]);
  const key = `${market}/${tf}/${from}-${to}`;
  if (!session) {
    const sealed = await ctx.store.seals.get(key);
    const kept = sealed ? coverageIn(sealed) : null;
    if (sealed && kept && sealHolds(kept)) return { bytes: () => sealed, bars: () => candleColumns(sealed), coverage: kept };
    if (sealed) await ctx.store.seals.drop(key);
  }
  const w = await ctx.upstreams.tape.window(market, tf, from, to, session !== undefined, knownWhole(market, tf, from, to));
  // Bars never appear inside a halt: a bar the venue sent there (an older session schedule) is left out and counted.
  const open = barsWhere(w.bars, (t) => isOpen(market, t));
  const measured = coverage({ market, tf, from, to, times: open.t, held: w.held, ...(w.built ? { built: w.built } : {}) });
  const seal = !session && isFinal(measured);
  const served = { ...measured, source: w.source, sealed: seal, left_out_in_halts: w.bars.length - open.length };
  let bytes: Buffer | null = null;
  const made = (): Buffer => {
    const answer: TapeAnswer = { ok: true, market, tf, from, to, candles: barsToRows(open), coverage: served };
    return (bytes ??= Buffer.from(JSON.stringify(answer)));
  };
  if (!seal) return { bytes: made, bars: () => open, coverage: served };
  // Two first reads racing for one window both answer what was sealed, and read the sealed answer's columns.
  const sealedBytes = await ctx.store.seals.seal(key, made());
  if (sealedBytes === bytes) knowColumns(sealedBytes, open);
  return { bytes: () => sealedBytes, bars: () => candleColumns(sealedBytes), coverage: sealedBytes === bytes ? served : coverageIn(sealedBytes) };
}

/** A past window's candles: the answer's bytes and its bars as columns, each made when first asked, and its coverage. */
export interface CandleWindow {
  bytes(): Buffer;
  /** Shared with other readers of the same seal: read them, never write them. */
  bars(): Bars;
  /** What was measured of the whole window, as the answer states it. */
  coverage: z.output<typeof ServedCoverage>;
}

/** A candle answer: the bars of the window, or its first ones with a summary of the whole (limit). */
export const TapeAnswer = answer({
  market: z.enum(MARKETS),
  tf: z.enum(TIMEFRAMES),
  from: z.number().int(),
  to: z.number().int(),
  candles: z.array(Candle),
  coverage: ServedCoverage.describe('what was measured, of the whole window'),
  summary: z
    .object({
      bars: z.number().int(),
      shown: z.number().int(),
      open: z.number().optional(),
      high: z.number().optional(),
      low: z.number().optional(),
      close: z.number().optional(),
      volume: z.number().optional(),
    })
    .optional()
    .describe('with limit under the whole: the whole window, summed up (no prices when it has no bars)'),
  more: z.object({ bars: z.number().int(), from: z.number().int().describe('ask again from here') }).nullable().optional().describe('with limit: where the rest begins; null when nothing is left'),
});

export type TapeAnswer = z.output<typeof TapeAnswer>;

/** Bars a model is shown at first over MCP: the window's summary and its first bars; the rest is asked by `from`. */
export const MCP_BARS = 500;

/**
 * Records a read of the tape on the reader's meter by the bars it served, without waiting for it: a sealed read takes
 * about a millisecond and an fsync several, and the meter reports, it never gates. The ledger writes records that
 * arrive together with one fsync; a crash can lose the last few milliseconds of them, in the caller's favour. A record
 * that fails is logged.
 */
export function meterRead(ctx: SessionCtx, bars: number): void {
  recordSpend(ctx, 'tape', bars).catch((error: unknown) => ctx.log.error('meter_not_recorded', { action: 'tape', bars, why: (error as Error).message }));
}

/** A whole window read as the tape tool reads it, metered by every bar (a run's live bars). */
export async function meteredCandles(ctx: SessionCtx, request: z.output<typeof TapeRequest>): Promise<CandleWindow> {
  const window = await candleWindow(ctx, request);
  meterRead(ctx, window.coverage.bars);
  return window;
}
