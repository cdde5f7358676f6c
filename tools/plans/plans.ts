import { z } from 'zod';
import { Plan } from '../../config/files.js';
import type { Ctx } from '../../services/context.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { chainsShown, treasuryOf } from '../../services/plans/offered.js';
import { perDeck } from '../../services/per-deck.js';
import { meterOf, planOf } from '../../services/plans/standing.js';
import { ChainShown, Mine, PrincipalShown } from '../../services/plans/standing-schema.js';
import { answer } from '../../services/schemas.js';

const answerOf = (ctx: Ctx) => {
  const { plans: list, currency } = ctx.offer.plans;
  const p = ctx.principal;
  return {
    ok: true as const,
    currency,
    plans: list,
    chains: chainsShown(ctx),
    treasury: treasuryOf(ctx),
    // Fields added to planOf's own object: a spread first and fields after it is a slow shape in Node 20's V8.
    mine: p ? Object.assign(planOf(ctx, p), { tier: p.tier, usage: meterOf(ctx, p) }) : null,
    principal: p ? { name: p.name, agent_id: p.agent_id, wallet: p.wallet, wallet_status: p.wallet_status, tier: p.tier } : null,
  };
};

/** Without a principal the answer is the offer and the treasury, fixed when a deck starts. */
const anonymous = perDeck(answerOf);

export const plans = defineTool({
  name: 'plans',
  title: 'Plans',
  description:
    'The public plan catalogue (plans with price and allowance, chains, treasury). Signed in, it also says which plan you stand on (mine) and who you are (principal). Needs no key.',
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'optional',
  output: answer({
    currency: z.literal('USDC'),
    plans: z.array(Plan),
    chains: z.array(ChainShown).describe('the chains a plan is paid on'),
    treasury: z.string().nullable().describe('where plan payments go; null while none is configured'),
    mine: Mine.nullable().describe('signed in: the plan you stand on, its period, your tier and today\'s meter'),
    principal: PrincipalShown.nullable().describe('signed in: who you are'),
  }),
  toolset: TOOLSETS.plans,
  rest: { method: 'GET', path: '/plans' },
  async run(ctx) {
    return ctx.principal ? answerOf(ctx) : anonymous(ctx);
  },
});
