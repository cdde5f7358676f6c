import { secondsToNextUtcDay, utcDay } from '../../store/spend.js';
import type { SessionCtx } from '../context.js';
import { limitReached } from '../../core/errors.js';
import { recordSpend } from '../meter/spend.js';

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
