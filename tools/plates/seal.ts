import { secondsToNextUtcDay, utcDay } from '../../store/spend.js';
import { defineTool } from '../define.js';
import { limitReached } from '../errors.js';
import { recordSpend } from '../meter/spend.js';
import { drawPlate, PlateRequest } from './draw.js';

/** Plates a principal may seal per UTC day (sealing one already sealed does not count). */
export const PLATE_SEALS_PER_DAY = 40;

export const plateSeal = defineTool({
  name: 'plate_seal',
  title: 'Seal a plate',
  description: `Draws a PNG candle chart of a past window (candles, volume, the indicators asked for, your marks on that market as lines, never their notes) and seals it: the id is the hash of the PNG and the chart_state numbers it was drawn from, so sealing the same thing again returns the same id with fresh false. The plate names no one. ${PLATE_SEALS_PER_DAY} seals a day.`,
  input: PlateRequest,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: 'session',
  rest: { method: 'POST', path: '/plates', errors: [429, 502, 503], tag: 'plates' },
  async run(ctx, input) {
    const p = ctx.principal!;
    const plate = await drawPlate(ctx, input);
    const path = `/plates/${plate.id}`;
    const now = ctx.clock();
    const day = utcDay(now);
    // The seal is counted only once the plate is whole, and only by the call that wrote it: a plate sealed
    // already (or being sealed by a call running at the same time) answers fresh false and counts nothing.
    const fresh = await ctx.store.plates.seal(plate.id, plate.png, plate.chartStateJson, async () => {
      await ctx.store.plateSeals.add(p.id, { id: plate.id, day }, (mine) => {
        if (mine.filter((s) => s.day === day).length >= PLATE_SEALS_PER_DAY) {
          throw limitReached('seals_used', `${PLATE_SEALS_PER_DAY} plates a day are sealed already`, secondsToNextUtcDay(now), { per_day: PLATE_SEALS_PER_DAY });
        }
      });
    });
    if (fresh) await recordSpend(ctx, 'plate');
    return { ok: true, id: plate.id, fresh, path, png: `${ctx.urls.base}${path}.png`, json: `${ctx.urls.base}${path}.json` };
  },
});
