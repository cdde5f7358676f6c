import { createHash } from 'node:crypto';
import { z } from 'zod';
import { barsFromRows, type BarRow } from '../../../engine/bars.js';
import { IndicatorSpecError, parseIndicators, type IndicatorSpec } from '../../../engine/indicators/index.js';
import { MARKETS, TIMEFRAME_SECONDS, TIMEFRAMES } from '../../../engine/markets.js';
import { MAX_PLATE_BARS, PlateError, plateLoadFrom, renderPlate, type Plate } from '../../../engine/plate/index.js';
import type { SessionCtx } from '../../context.js';
import { badInput, DeckError } from '../../../core/errors.js';
import { readCandles } from '../../tape/tape.js';

export const PlateRequest = z
  .object({
    market: z.enum(MARKETS),
    tf: z.enum(TIMEFRAMES),
    from: z.iso.datetime({ offset: false }).describe('window start, ISO-8601 UTC (…Z)'),
    to: z.iso.datetime({ offset: false }).describe('window end, ISO-8601 UTC, in the past'),
    indicators: z.array(z.string()).max(8).optional().describe('ema:N, sma:N, vwap, bb:N:K, atr:N, rsi:N, hi:N, lo:N'),
  })
  .strict();

export interface DrawnPlate extends Plate {
  /** sha256 of the PNG and the chart_state it was drawn from. */
  id: string;
  chartStateJson: string;
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** A plate's id: sha256 of its PNG and of the JSON of the numbers it was drawn from. */
export const plateId = (png: Uint8Array, json: string): string => createHash('sha256').update(png).update(json).digest('hex');

/** Runs a renderer: a picture there is none of (no bars, a flat series) is 422 undrawable with the reason. */
export function drawing<T>(render: () => T): T {
  try {
    return render();
  } catch (error) {
    if (error instanceof PlateError) throw new DeckError(422, 'undrawable', error.message, { reason: error.reason });
    throw error;
  }
}

function specsOf(texts: readonly string[]): IndicatorSpec[] {
  try {
    return parseIndicators(texts);
  } catch (error) {
    if (!(error instanceof IndicatorSpecError)) throw error;
    throw badInput([{ field: `indicators.${texts.indexOf(error.indicator)}`, message: error.message }]);
  }
}

/**
 * Draws the plate of a past window: its bars read through the tape tool (so a plate is drawn from sealed bars),
 * from far enough before the window that every indicator is warm and VWAP starts at its trading day, and the
 * principal's marks on that market (where they lie; never their notes).
 */
export async function drawPlate(ctx: SessionCtx, input: z.output<typeof PlateRequest>): Promise<DrawnPlate> {
  const from = seconds(input.from);
  const to = seconds(input.to);
  const len = TIMEFRAME_SECONDS[input.tf];
  if (from >= to) throw badInput([{ field: 'from', message: 'must be before to' }]);
  if (to > ctx.clock() / 1000) throw badInput([{ field: 'to', message: 'a plate draws the past: to must not be in the future' }]);
  if ((to - from) / len > MAX_PLATE_BARS) throw badInput([{ field: 'to', message: `at most ${MAX_PLATE_BARS} ${input.tf} bars on one plate` }]);
  const specs = specsOf(input.indicators ?? []);
  const start = plateLoadFrom(input.market, input.tf, from, specs);
  const got = await readCandles(ctx, { market: input.market, tf: input.tf, from: start, to });
  const { candles } = JSON.parse(got.bytes.toString('utf8')) as { candles: BarRow[] };
  const marks = ctx.store.marks
    .list(ctx.principal.id)
    .filter((m) => m.market === input.market)
    .map((m) => ({ kind: m.kind, price: m.price, ...(m.price2 !== undefined ? { price2: m.price2 } : {}) }));
  const plate = drawing(() => renderPlate({ market: input.market, tf: input.tf, from, to, bars: barsFromRows(candles), indicators: specs, marks }));
  const chartStateJson = JSON.stringify(plate.chart_state);
  return { ...plate, id: plateId(plate.png, chartStateJson), chartStateJson };
}
