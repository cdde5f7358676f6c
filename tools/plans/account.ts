import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { Grant } from '../../config/files.js';
import { grantOf, meterOf, planOf } from '../../services/plans/standing.js';
import { MeterView, PlanStanding, PrincipalShown } from '../../services/plans/standing-schema.js';

export const account = defineTool({
  name: 'account',
  title: 'Account',
  description: "Your account: name, agent id, wallet (and whether it is proven), tier, plan, grant and today's meter.",
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'session',
  output: PlanStanding.extend({
    ok: z.literal(true),
    principal: PrincipalShown,
    grant: Grant.nullable().describe('the grant you hold today, from the grants file'),
    meter: MeterView,
  }),
  toolset: TOOLSETS.plans,
  rest: { method: 'GET', path: '/me' },
  async run(ctx) {
    const p = ctx.principal;
    return {
      ok: true as const,
      principal: { name: p.name, agent_id: p.agent_id, wallet: p.wallet, wallet_status: p.wallet_status, tier: p.tier },
      ...planOf(ctx, p),
      grant: grantOf(ctx, p.name),
      meter: meterOf(ctx, p),
    };
  },
});
