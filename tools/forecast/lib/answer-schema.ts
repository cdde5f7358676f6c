import { z } from 'zod';
import { FORECAST_TIMEFRAMES } from '../../../engine/forecast/index.js';
import { MARKETS } from '../../../engine/markets.js';

/** The shapes a forecast answer is made of (engine/forecast/calibration.ts measures them). */

export const Calibration = z.object({
  n: z.number().int().describe('scored envelopes'),
  ece: z.number().nullable().describe('expected calibration error of the touch odds; null when none is scored'),
  coverage: z.number().nullable().describe('the share of closes the band held'),
});

export const Drawn = {
  draw: z.enum(['solid', 'dashed', 'none']).describe('solid when ece < 0.05, dashed under 0.10, else none'),
  label: z.enum(['calibrated', 'loosely calibrated', 'not calibrated', 'unmeasured']),
};

/** One row of the forecast lens: a pair's calibration now and its newest issue. */
export const LensRow = Calibration.extend({
  market: z.enum(MARKETS),
  tf: z.enum(FORECAST_TIMEFRAMES),
  ...Drawn,
  newest_issued_t: z.number().int().nullable(),
  age_bars: z.number().int().nullable().describe('bars closed since the newest issue'),
});
