import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { meterOf } from '../../services/plans/standing.js';
import { MeterView } from '../../services/plans/standing-schema.js';
import { Recorded, spendEntry } from '../../services/meter/spend.js';

export const meterRecord = defineTool({
  name: 'meter_record',
  title: 'Record a spend',
  description:
    "Records one act's spend on your meter (bars for bar-priced actions) in the hash-chained meter ledger and answers the new balance. Never refuses: not for want of balance, and not for an act the price list does not name, which is recorded as an unpriced act costing nothing (recorded.priced false).",
  input: z
    .object({
      action: z
        .string()
        .min(1)
        .max(64, 'at most 64 characters')
        .regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits, _ . : and - only')
        .describe('an action of the price list; any other is recorded unpriced, at no cost'),
      bars: z.number().int().nonnegative().max(100_000_000).optional().describe('bars stepped over, for bar-priced actions'),
    })
    .strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  access: 'session',
  output: MeterView.extend({ ok: z.literal(true), recorded: Recorded.extend({ priced: z.boolean().describe('false: the price list does not name the act, recorded at no cost') }) }),
  toolset: TOOLSETS.plans,
  rest: { method: 'POST', path: '/meter' },
  async run(ctx, { action, bars }) {
    // The meter reports and never turns a caller away: an act the price list does not name is kept, unpriced.
    const entry = ctx.offer.plans.prices.find((p) => p.action === action);
    const recorded = await spendEntry(ctx, entry ?? { action, units: 0, what: 'an act the price list does not name' }, bars);
    return { ok: true, recorded: { ...recorded, priced: entry !== undefined }, ...meterOf(ctx, ctx.principal) };
  },
});
