import { z } from 'zod';
import type { SessionCtx } from '../context.js';
import { unitsOf, type PriceEntry } from './prices.js';

/** What one spend put on the meter. */
export const Recorded = z.object({ action: z.string(), units: z.number(), bars: z.number().int().nullable().describe('bars stepped over, for bar-priced actions') });
export type Recorded = z.infer<typeof Recorded>;

/** Appends one priced spend of the signed-in principal to the meter ledger. The meter records; it never refuses. */
export async function spendEntry(ctx: SessionCtx, entry: PriceEntry, bars?: number): Promise<Recorded> {
  const units = unitsOf(entry, bars);
  await ctx.store.spend.record({ principal_id: ctx.principal.id, action: entry.action, units, ...(bars !== undefined ? { bars } : {}) }, ctx.clock());
  return { action: entry.action, units, bars: bars ?? null };
}

/**
 * Records an act the deck performed for the signed-in principal (a sealed plate, an attached image, bars read from
 * the tape, ...) on the meter ledger, as POST /meter would, without refusing. An act the price list does not name
 * costs nothing and is not recorded (taking an act off the price list is how it is made free): answers null then.
 */
export async function recordSpend(ctx: SessionCtx, action: string, bars?: number): Promise<Recorded | null> {
  const entry = ctx.offer.plans.prices.find((p) => p.action === action);
  return entry ? spendEntry(ctx, entry, bars) : null;
}
