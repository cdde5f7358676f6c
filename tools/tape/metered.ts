import type { Ctx } from '../context.js';
import { unitsFor } from '../meter/prices.js';

/**
 * Records a read of the tape on the caller's meter (the hash-chained meter ledger, through the store function POST
 * /meter appends with): the bars served, priced by the price list's `tape` entry; a read of no bars at 0 units.
 * The answer does not wait for the record's fsync: a sealed read takes about a millisecond and an fsync several,
 * and the meter reports, it never gates. The ledger writes the reads that arrive together with one fsync, so the
 * records keep up with any rate of reads; a crash can lose the last few milliseconds of them (in the caller's
 * favour), and a record that fails is logged.
 */
export function meterTapeRead(ctx: Ctx, bars: number): void {
  const spend = { principal_id: ctx.principal!.id, action: 'tape', units: unitsFor(ctx.offer.plans, 'tape', bars), bars };
  ctx.store.spend.record(spend, ctx.clock()).catch((error: unknown) => ctx.log.error('meter_not_recorded', { action: 'tape', bars, why: (error as Error).message }));
}
