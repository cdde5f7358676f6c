import { z } from 'zod';
import { drawOf, FORECAST_TIMEFRAMES, HORIZON } from '../../engine/forecast/index.js';
import { MARKETS } from '../../engine/markets.js';
import { noForecaster } from '../../upstream/forecast/forecaster.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { ageBars } from '../../services/forecast/age.js';
import { scoreDue } from '../../services/forecast/scoring.js';
import { LensSchema } from '../../upstream/forecast/source.js';
import { LensRow } from '../../services/forecast/answer-schema.js';

export const forecastHealth = defineTool({
  name: 'forecast_health',
  title: 'Forecast lens',
  description:
    'The forecaster (model, revision, device, trailing sample size, horizon) and one row per market and timeframe (5m, 1h): its calibration now (n scored, the worst cell\'s ece, band coverage, each cell with its effective outcomes, draw and label; the pair drawn as its worst cell) and its newest issue with its age in bars.',
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: 'session',
  output: LensSchema.extend({ ok: z.literal(true), horizon: z.number().int().describe('bars ahead the band spans'), rows: z.array(LensRow) }),
  toolset: TOOLSETS.forecast,
  rest: { method: 'GET', path: '/forecast/health', errors: [502, 503] },
  async run(ctx) {
    const forecaster = ctx.upstreams.forecaster;
    if (!forecaster) throw noForecaster();
    const lens = await forecaster.lens();
    const now = Math.floor(ctx.clock() / 1000);
    const rows = [];
    for (const market of MARKETS) {
      for (const tf of FORECAST_TIMEFRAMES) {
        const book = await ctx.store.forecasts.book({ market, tf });
        await book.exclusive(() => scoreDue(ctx, book));
        const calibration = book.calibration(now);
        const newest = book.newest();
        rows.push({
          market,
          tf,
          ...calibration,
          ...drawOf(calibration),
          newest_issued_t: newest?.issued_t ?? null,
          age_bars: newest ? ageBars(book.pair, newest.issued_t, now) : null,
        });
      }
    }
    return { ok: true as const, ...lens, horizon: HORIZON, rows };
  },
});
