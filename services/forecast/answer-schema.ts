import { z } from 'zod';
import { FORECAST_TIMEFRAMES } from '../../engine/forecast/index.js';
import { MARKETS } from '../../engine/markets.js';

/** The shapes a forecast answer is made of (engine/forecast/calibration.ts measures them). */

const drawn = (draw: string) => ({
  draw: z.enum(['solid', 'dashed', 'none']).describe(draw),
  label: z.enum(['calibrated', 'loosely calibrated', 'not calibrated', 'unmeasured']),
});

/** A pair's draw and label: the worst of its cells', so no cell is drawn better than it measured. */
export const Drawn = drawn('the worst of its cells\' draws: solid only when every cell is solid, none when any is unmeasured or not calibrated');

/** What every cell states of itself: how many envelopes and outcomes it rests on, its error, and how it is drawn. */
const Cell = {
  n: z.number().int().describe('scored envelopes'),
  effective: z.number().int().describe('independent outcomes it rests on: overlapping horizons count once per horizon of issues; under 30 it reads unmeasured'),
  ece: z.number().nullable().describe('its own calibration error; null when none is scored'),
  ...drawn('solid when its ece is under 0.05, dashed under 0.10, else none; none while unmeasured'),
};

const TouchCell = z.object({
  atr: z.number().describe('the touch size in ATR'),
  within: z.number().int().describe('the horizon in bars'),
  ...Cell,
  stated: z.number().nullable().describe('the mean odds stated'),
  happened: z.number().nullable().describe('the share of envelopes where the touch happened'),
});

const BandCell = z.object({
  within: z.number().int().describe('the bars the band reaches ahead'),
  ...Cell,
  nominal: z.number().nullable().describe('the share of closes the band promised to hold'),
  coverage: z.number().nullable().describe('the share it held; its ece is |coverage - nominal|'),
});

export const Calibration = z.object({
  n: z.number().int().describe('scored envelopes'),
  ece: z.number().nullable().describe('the largest ece of its cells (the nine touches and the band), so it never reads better than a cell; null when none is scored'),
  coverage: z.number().nullable().describe('the share of closes the band held'),
  touch: z.array(TouchCell).describe('one cell per touch odds, in the envelope\'s order, each measured, drawn and labelled on its own'),
  band: BandCell,
});

/** One row of the forecast lens: a pair's calibration now and its newest issue. */
export const LensRow = Calibration.extend({
  market: z.enum(MARKETS),
  tf: z.enum(FORECAST_TIMEFRAMES),
  ...Drawn,
  newest_issued_t: z.number().int().nullable(),
  age_bars: z.number().int().nullable().describe('bars closed since the newest issue'),
});
