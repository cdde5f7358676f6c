import { secondsToNextUtcDay, utcDay } from '../../store/spend.js';
import type { SessionCtx } from '../context.js';
import { defineTool } from '../define.js';
import { limitReached } from '../../core/errors.js';
import { recordSpend } from '../meter/lib/spend.js';
import { z } from 'zod';
import { drawPlate, PlateRequest } from './lib/draw.js';
import { answer } from '../schemas.js';

/** Plates a principal may seal per UTC day (sealing one already sealed does not count). */
export const PLATE_SEALS_PER_DAY = 40;

const sealsUsed = (now: number) =>
  limitReached('seals_used', `${PLATE_SEALS_PER_DAY} plates a day are sealed already`, secondsToNextUtcDay(now), { per_day: PLATE_SEALS_PER_DAY });

/**
 * The day's seals used, said before a plate is drawn (a rehearsal asked for one foresees it): 429 seals_used. A plate
 * sealed already would not count, but which plate is known only once drawn.
 */
export function refuseSealsUsed(ctx: SessionCtx): void {
  const now = ctx.clock();
  const day = utcDay(now);
  if (ctx.store.plateSeals.list(ctx.principal.id).filter((s) => s.day === day).length >= PLATE_SEALS_PER_DAY) throw sealsUsed(now);
}

/**
 * Seals a drawn picture in the plates store under its id (the hash of the PNG and the JSON it was drawn from) and
 * answers where it is served. The seal is counted only once the plate is whole, and only by the call that wrote it:
 * a plate sealed already (or being sealed by a call running at the same time) answers fresh false and counts
 * nothing; over the day's seals it is 429.
 */
export async function sealPlate(ctx: SessionCtx, id: string, png: Uint8Array, stateJson: string) {
  const p = ctx.principal;
  const path = `/plates/${id}`;
  const now = ctx.clock();
  const day = utcDay(now);
  const fresh = await ctx.store.plates.seal(id, png, stateJson, async () => {
    await ctx.store.plateSeals.add(p.id, { id, day }, (mine) => {
      if (mine.filter((s) => s.day === day).length >= PLATE_SEALS_PER_DAY) throw sealsUsed(now);
    });
  });
  if (fresh) await recordSpend(ctx, 'plate');
  return { id, fresh, path, png: `${ctx.urls.base}${path}.png`, json: `${ctx.urls.base}${path}.json` };
}

export const plateSeal = defineTool({
  name: 'plate_seal',
  title: 'Seal a plate',
  description: `Draws a PNG candle chart of a past window (candles, volume, the indicators asked for, your marks on that market as lines, never their notes) and seals it: the id is the hash of the PNG and the chart_state numbers it was drawn from, so sealing the same thing again returns the same id with fresh false. The plate names no one. ${PLATE_SEALS_PER_DAY} seals a day.`,
  input: PlateRequest,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  access: 'session',
  output: answer({
    id: z.string().describe('sha256 of the PNG and the chart_state numbers it was drawn from'),
    fresh: z.boolean().describe('false: sealed already, counted nothing'),
    path: z.string(),
    png: z.string().describe("the PNG's URL"),
    json: z.string().describe("the chart_state's URL"),
  }),
  rest: { method: 'POST', path: '/plates', errors: [429, 502, 503], tag: 'plates' },
  async run(ctx, input) {
    const plate = await drawPlate(ctx, input);
    return { ok: true, ...(await sealPlate(ctx, plate.id, plate.png, plate.chartStateJson)) };
  },
});
