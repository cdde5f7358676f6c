import { z } from 'zod';
import { priceOf, SELLERS } from '../../config/sellers.js';
import { defineTool } from '../define.js';
import { priceEntry } from '../meter/lib/prices.js';
import { register } from '../studio/lib/register.js';
import { quoteOf } from '../studio/strategy-quote.js';

export const price = defineTool({
  name: 'price',
  title: 'Price list',
  description:
    "What things cost: the meter's units per action (and per 1,000 bars where bars are priced), each tier's daily allowance, each seller's price per job in USDC, and what forging and rehearsing each onboarded strategy costs. Needs no key.",
  input: z.object({ action: z.string().min(1).optional().describe('one action to price; all when absent') }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'none',
  rest: { method: 'GET', path: '/price', tag: 'plans' },
  async run(ctx, { action }) {
    const { prices, plans, house_allowance_per_day } = ctx.offer.plans;
    const listed = action ? [priceEntry(ctx.offer.plans, action)] : prices;
    return {
      ok: true,
      unit: 'meter unit',
      prices: listed,
      allowance_per_day: { ...Object.fromEntries(plans.map((p) => [p.tier, p.allowance_per_day])), house: house_allowance_per_day },
      sellers: SELLERS.map((s) => ({ id: s.id, price_usdc: priceOf(s, ctx.offer.plans), price_basis: s.price_basis })),
      // The onboarded register's public strategies, each quoted as strategy_quote quotes it.
      strategies: register(ctx)
        .filter((s) => !s.house)
        .map((s) => quoteOf(ctx, s)),
    };
  },
});
