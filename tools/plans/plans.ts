import { z } from 'zod';
import { defineTool } from '../define.js';
import { chainsShown, treasuryOf } from './offered.js';
import { meterOf, planOf } from './standing.js';

export const plans = defineTool({
  name: 'plans',
  title: 'Plans',
  description:
    'The public plan catalogue (plans with price and allowance, chains, treasury). Signed in, it also says which plan you stand on (mine) and who you are (principal). Needs no key.',
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'optional',
  rest: { method: 'GET', path: '/plans', tag: 'plans' },
  async run(ctx) {
    const { plans: list, currency } = ctx.offer.plans;
    const p = ctx.principal;
    return {
      ok: true,
      currency,
      plans: list,
      chains: chainsShown(ctx),
      treasury: treasuryOf(ctx),
      mine: p ? { ...planOf(ctx, p), tier: p.tier, usage: meterOf(ctx, p) } : null,
      principal: p ? { name: p.name, agent_id: p.agent_id, wallet: p.wallet, tier: p.tier } : null,
    };
  },
});
