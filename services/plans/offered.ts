import type { Ctx } from '../context.js';
import { badInput } from '../../core/errors.js';
import { opens, type Tier } from '../../core/principal.js';

/** The treasury plan payments go to: DECK_TREASURY, else the plans file's. */
export const treasuryOf = (ctx: Pick<Ctx, 'config' | 'offer'>): string | null => ctx.config.treasury ?? ctx.offer.plans.treasury;

/** The chains a plan is paid on, as the catalogue shows them: never the RPC, which may carry a provider's key. */
export const chainsShown = (ctx: Pick<Ctx, 'offer'>) =>
  ctx.offer.plans.chains.map(({ rpc: _rpc, ...shown }) => shown);

/** A listed chain by id; any other is bad input naming `field`. */
export function listedChain(ctx: Pick<Ctx, 'offer'>, id: string, field: string) {
  const chain = ctx.offer.plans.chains.find((c) => c.id === id);
  if (!chain) throw badInput([{ field, message: `not a listed chain; one of ${ctx.offer.plans.chains.map((c) => c.id).join(', ') || '(none configured)'}` }]);
  return chain;
}

/**
 * How to buy a tier, as an upgrade_required answer says it: the cheapest plan that opens it, its price, the
 * treasury and the chains to pay on, and the route that claims the payment. null for a tier no plan sells
 * (house is granted by the operator).
 */
export function howToBuy(ctx: Pick<Ctx, 'config' | 'offer'>, tier: Tier) {
  const plan = ctx.offer.plans.plans
    .filter((p) => p.price_usdc > 0 && p.period_days !== null && opens(p.tier, tier))
    .sort((a, b) => a.price_usdc - b.price_usdc)[0];
  if (!plan) return null;
  return {
    plan: plan.id,
    price_usdc: plan.price_usdc,
    period_days: plan.period_days,
    currency: ctx.offer.plans.currency,
    treasury: treasuryOf(ctx),
    chains: chainsShown(ctx).map((c) => ({ id: c.id, name: c.name, token: c.token, token_address: c.token_address, token_decimals: c.token_decimals })),
    claim: 'POST /plans { chain, tx_hash, payer_signature_hex? } (the plan_claim tool) once the transfer has its confirmations',
  };
}
