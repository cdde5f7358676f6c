import { z } from 'zod';
import { defineTool } from '../define.js';
import { meterOf } from '../plans/lib/standing.js';
import { priceEntry } from './lib/prices.js';
import { MeterView } from '../plans/lib/standing-schema.js';
import { Recorded, spendEntry } from './lib/spend.js';

export const meterRecord = defineTool({
  name: 'meter_record',
  title: 'Record a spend',
  description:
    "Records one action's spend on your meter (bars for bar-priced actions) in the hash-chained meter ledger and answers the new balance. Never refuses for want of balance.",
  input: z
    .object({
      action: z.string().min(1).describe('an action of the price list'),
      bars: z.number().int().nonnegative().max(100_000_000).optional().describe('bars stepped over, for bar-priced actions'),
    })
    .strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  access: 'session',
  output: MeterView.extend({ ok: z.literal(true), recorded: Recorded }),
  rest: { method: 'POST', path: '/meter', tag: 'plans' },
  async run(ctx, { action, bars }) {
    const recorded = await spendEntry(ctx, priceEntry(ctx.offer.plans, action), bars);
    return { ok: true, recorded, ...meterOf(ctx, ctx.principal) };
  },
});
