import { createHash } from 'node:crypto';
import { z } from 'zod';
import { unixTime } from '../schemas.js';
import { IndicatorSpecError, parseIndicators, type IndicatorSpec } from '../../engine/indicators/index.js';
import { MARKETS, TIMEFRAME_SECONDS, TIMEFRAMES } from '../../engine/markets.js';
import {
  furtherBack,
  MAX_PLATE_BARS,
  plateLoadFrom,
  type Drawn,
  type Plate,
  type PlateInput,
  type RehearsalPlate,
  type RehearsalPlateInput,
} from '../../engine/plate/index.js';
import { workAsk, type SessionCtx } from '../context.js';
import { badInput, DeckError } from '../../core/errors.js';
import { candleWindow, MAX_BARS } from '../tape/candle-window.js';

export const PlateRequest = z
  .object({
    market: z.enum(MARKETS),
    tf: z.enum(TIMEFRAMES),
    from: unixTime.describe('window start: ISO-8601 UTC (…Z) or unix seconds'),
    to: unixTime.describe('window end: ISO-8601 UTC or unix seconds, in the past'),
    indicators: z.array(z.string()).max(8).optional().describe('ema:N, sma:N, vwap, bb:N:K, atr:N, rsi:N, hi:N, lo:N'),
  })
  .strict();

export interface DrawnPlate extends Plate {
  /** sha256 of the PNG and the chart_state it was drawn from. */
  id: string;
  chartStateJson: string;
}

/** A plate's id: sha256 of its PNG and of the JSON of the numbers it was drawn from. */
export const plateId = (png: Uint8Array, json: string): string => createHash('sha256').update(png).update(json).digest('hex');

/**
 * A plate drawn on the work pool (rasterizing holds a core for tens of milliseconds, a month's rehearsal about a
 * hundred): a picture there is none of (no bars, a flat series) is 422 undrawable with the reason.
 */
async function drawnOnPool<P extends { png: Buffer }>(job: Promise<Drawn<P>>): Promise<P> {
  const drawn = await job;
  if (!drawn.ok) throw new DeckError(422, 'undrawable', drawn.message, { reason: drawn.reason });
  // A Buffer crosses a thread as a Uint8Array: the same bytes, seen as a Buffer again.
  const png: Uint8Array = drawn.plate.png;
  return { ...drawn.plate, png: Buffer.from(png.buffer, png.byteOffset, png.byteLength) };
}

const drawnPlate = (ctx: SessionCtx, input: PlateInput): Promise<Plate> => drawnOnPool(ctx.pool.run('drawing', input, workAsk(ctx)));

export const drawRehearsalPlate = (ctx: SessionCtx, input: RehearsalPlateInput): Promise<RehearsalPlate> =>
  drawnOnPool(ctx.pool.run('drawingRehearsal', input, workAsk(ctx)));

function specsOf(texts: readonly string[]): IndicatorSpec[] {
  try {
    return parseIndicators(texts);
  } catch (error) {
    if (!(error instanceof IndicatorSpecError)) throw error;
    throw badInput([{ field: `indicators.${texts.indexOf(error.indicator)}`, message: error.message }]);
  }
}

/** Reads of the tape a plate makes at most for its warm-up, the first included. */
const WARM_UP_READS = 4;

/**
 * Draws the plate of a past window: its bars read through the tape tool (so a plate is drawn from sealed bars),
 * from far enough before the window that every indicator is settled and VWAP starts at its trading day (read further
 * back while a sparse market's bars fall short of the warm-up and the tape holds more), and the principal's marks on
 * that market (where they lie; never their notes). What the tape could not supply, the plate says.
 */
export async function drawPlate(ctx: SessionCtx, input: z.output<typeof PlateRequest>): Promise<DrawnPlate> {
  const from = input.from;
  const to = input.to;
  const len = TIMEFRAME_SECONDS[input.tf];
  if (from >= to) throw badInput([{ field: 'from', message: 'must be before to' }]);
  if (to > ctx.clock() / 1000) throw badInput([{ field: 'to', message: 'a plate draws the past: to must not be in the future' }]);
  if ((to - from) / len > MAX_PLATE_BARS) throw badInput([{ field: 'to', message: `at most ${MAX_PLATE_BARS} ${input.tf} bars on one plate` }]);
  const specs = specsOf(input.indicators ?? []);
  const read = async (start: number) => {
    const got = await candleWindow(ctx, { market: input.market, tf: input.tf, from: start, to });
    const bars = got.bars();
    const first = bars.t.findIndex((t) => t >= from);
    return { start, bars, coverage: got.coverage, before: first < 0 ? bars.length : first };
  };
  const earliest = to - MAX_BARS * len;
  let got = await read(Math.max(earliest, plateLoadFrom(input.market, input.tf, from, specs)));
  for (let n = 1; n < WARM_UP_READS; n++) {
    const next = furtherBack(input.market, input.tf, from, got.start, got.before, specs, earliest);
    if (next === null) break;
    const more = await read(next);
    // Nothing earlier in the tape: the warm-up is what it is, and the plate says so.
    if (more.before <= got.before) break;
    got = more;
  }
  const { bars, coverage } = got;
  const marks = ctx.store.marks
    .list(ctx.principal.id)
    .filter((m) => m.market === input.market)
    .map((m) => ({ kind: m.kind, price: m.price, ...(m.price2 !== undefined ? { price2: m.price2 } : {}) }));
  const plate = await drawnPlate(ctx, { market: input.market, tf: input.tf, from, to, bars, unmeasured: coverage.unmeasured.spans, indicators: specs, marks });
  const chartStateJson = JSON.stringify(plate.chart_state);
  return { ...plate, id: plateId(plate.png, chartStateJson), chartStateJson };
}
