import { z } from 'zod';
import { MARKETS, TIMEFRAMES } from '../../engine/markets.js';

/** A plate's chart_state: the numbers it was drawn from, public (it names no one and carries no mark's note or price). */
export const ChartState = z.object({
  style: z.string(),
  market: z.enum(MARKETS),
  tf: z.enum(TIMEFRAMES),
  from: z.string(),
  to: z.string(),
  size: z.object({ width: z.number().int(), height: z.number().int() }),
  bars: z.object({
    count: z.number().int(),
    first_t: z.number().int(),
    last_t: z.number().int(),
    digest: z.string().describe("sha256 of the drawn bars' t, o, h, l, c, v columns as little-endian float64, column after column"),
    last: z.object({ t: z.number().int(), o: z.number(), h: z.number(), l: z.number(), c: z.number(), v: z.number() }),
  }),
  price: z.object({ low: z.number(), high: z.number(), decimals: z.number().int() }),
  volume: z.object({ max: z.number() }),
  indicators: z.array(
    z.object({
      spec: z.string(),
      pane: z.enum(['price', 'lower']),
      lines: z.array(z.object({ name: z.string(), last: z.number().nullable() })),
      warm_up: z
        .object({
          bars: z.number().int().describe('bars before the window the line was computed over'),
          wanted: z.number().int().describe('bars its first value needs to be settled: N for sma, bb, hi, lo; 5N for ema; 10N for atr, rsi; for vwap, its trading day before the window'),
          settled: z.boolean().describe('false when the tape could not supply the warm-up (the plate says so in its legend)'),
        })
        .describe('the history the line was warmed over before the window'),
    }),
  ),
  marks: z.array(z.object({ kind: z.enum(['level', 'zone']), placed: z.enum(['in_view', 'above', 'below']) })),
});
