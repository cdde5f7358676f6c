import { z } from 'zod';
import { PriceEntry } from '../../config/files.js';
import { MARKETS, TIMEFRAMES } from '../../engine/markets.js';
import { TIERS } from '../../core/principal.js';
import { priceOf, SELLERS } from '../../config/sellers.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { priceEntry } from '../../services/meter/prices.js';
import { register } from '../../services/studio/register.js';
import { quoteOf } from '../../services/studio/strategy-quote.js';
import { answer } from '../../services/schemas.js';

/** An onboarded strategy's price: one forge plus one rehearsal over the default window, in meter units (quoteOf). */
export const StrategyQuote = z.object({
  name: z.string(),
  market: z.enum(MARKETS),
  timeframe: z.enum(TIMEFRAMES),
  window: z.object({ hours: z.number(), bars_at_most: z.number().int() }),
  unit: z.string().describe('meter unit'),
  meter: z.object({ forge: z.number(), rehearse: z.number(), total: z.number() }),
});

export const price = defineTool({
  name: 'price',
  title: 'Price list',
  description:
    "What things cost: the meter's units per action (and per 1,000 bars where bars are priced), each tier's daily allowance, each seller's price per job in USDC, and what forging and rehearsing each onboarded strategy costs. Needs no key.",
  input: z.object({ action: z.string().min(1).optional().describe('one action to price; all when absent') }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'none',
  output: answer({
    unit: z.literal('meter unit'),
    prices: z.array(PriceEntry),
    allowance_per_day: z.partialRecord(z.enum(TIERS), z.number()).describe("each tier's daily allowance in meter units"),
    sellers: z.array(z.object({ id: z.string(), price_usdc: z.object({ unit: z.string(), min: z.number(), max: z.number() }), price_basis: z.string() })),
    strategies: z.array(StrategyQuote).describe('the onboarded public strategies, each as strategy_quote quotes it'),
  }),
  toolset: TOOLSETS.plans,
  rest: { method: 'GET', path: '/price' },
  async run(ctx, { action }) {
    const { prices, plans, house_allowance_per_day } = ctx.offer.plans;
    const listed = action ? [priceEntry(ctx.offer.plans, action)] : prices;
    return {
      ok: true as const,
      unit: 'meter unit' as const,
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
