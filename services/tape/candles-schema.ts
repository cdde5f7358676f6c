import { z } from 'zod';
import { MARKETS, TIMEFRAMES } from '../../engine/markets.js';

/** A candle answer's shapes (engine/coverage.ts says what each coverage field measures). */

export const Candle = z.object({ t: z.number().int().describe('open time, unix seconds'), o: z.number(), h: z.number(), l: z.number(), c: z.number(), v: z.number() });

const Span = z.object({ from: z.number().int(), to: z.number().int() });
const Runs = z.object({ spans: z.array(Span), bars: z.number().int() });

export const Coverage = z.object({
  market: z.enum(MARKETS),
  tf: z.enum(TIMEFRAMES),
  from: z.number().int(),
  to: z.number().int(),
  measured: z.boolean().describe('false when the source held no history anywhere in the window'),
  bars: z.number().int().describe('bars served'),
  expected: z.number().int().describe('bars the calendar expects'),
  closed: z.object({ spans: z.array(Span.extend({ why: z.enum(['weekend', 'daily_break']) })), seconds: z.number().int() }).describe("the market's halts in the window"),
  missing: Runs.describe('expected bars absent where the source held history'),
  unmeasured: Runs.describe('expected bars where the source held no history'),
  unexpected: z.number().int().describe('bars served that the calendar does not expect'),
  built_from: z.object({ tf: z.enum(TIMEFRAMES), partial: z.number().int() }).nullable().describe('when built from finer bars: that timeframe and the partial bars'),
  complete: z.boolean(),
});

/** The coverage as a candle answer serves it: with where the bars came from and whether the window is sealed. */
export const ServedCoverage = Coverage.extend({
  source: z
    .union([z.enum(['venue', 'archive', 'sample']), z.templateLiteral(['ccxt:', z.string()])])
    .describe('venue, archive or sample; ccxt:<exchange> when the venue is an exchange through ccxt'),
  sealed: z.boolean(),
  left_out_in_halts: z.number().int().describe('bars the venue sent inside a halt, left out'),
});
