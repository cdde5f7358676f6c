import type { Ctx } from '../context.js';
import { unitsFor } from '../meter/prices.js';

/**
 * Records a read of the tape on the caller's meter (the hash-chained meter ledger, as POST /meter appends it): the
 * bars served, priced by the price list's `tape` entry. Every served read is recorded, a read of no bars as 0 units.
 */
export async function meterTapeRead(ctx: Ctx, bars: number): Promise<void> {
  await ctx.store.spend.record({ principal_id: ctx.principal!.id, action: 'tape', units: unitsFor(ctx.offer.plans, 'tape', bars), bars }, ctx.clock());
}
