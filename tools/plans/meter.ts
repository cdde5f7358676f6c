import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { PriceEntry } from '../../config/files.js';
import { meterOf } from '../../services/plans/standing.js';
import { MeterView } from '../../services/plans/standing-schema.js';

export const meter = defineTool({
  name: 'meter',
  title: 'Meter',
  description: "Today's balance, allowance and tone, with the price list. The meter reports; it never turns a caller away.",
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'session',
  output: MeterView.extend({ ok: z.literal(true), prices: z.array(PriceEntry).describe('the price list') }),
  toolset: TOOLSETS.plans,
  rest: { method: 'GET', path: '/meter' },
  async run(ctx) {
    return { ok: true, ...meterOf(ctx, ctx.principal), prices: ctx.offer.plans.prices };
  },
});
