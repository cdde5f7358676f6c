import { z } from 'zod';
import type { Ctx } from '../context.js';
import { defineTool } from '../define.js';
import { chainsShown, treasuryOf } from './lib/offered.js';
import { perDeck } from '../per-deck.js';
import { meterOf, planOf } from './lib/standing.js';

const answerOf = (ctx: Ctx) => {
  const { plans: list, currency } = ctx.offer.plans;
  const p = ctx.principal;
  return {
    ok: true,
    currency,
    plans: list,
    chains: chainsShown(ctx),
    treasury: treasuryOf(ctx),
    // Fields added to planOf's own object: a spread first and fields after it is a slow shape in Node 20's V8.
    mine: p ? Object.assign(planOf(ctx, p), { tier: p.tier, usage: meterOf(ctx, p) }) : null,
    principal: p ? { name: p.name, agent_id: p.agent_id, wallet: p.wallet, tier: p.tier } : null,
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
  rest: { method: 'GET', path: '/plans', tag: 'plans' },
  async run(ctx) {
    return ctx.principal ? answerOf(ctx) : anonymous(ctx);
  },
});
