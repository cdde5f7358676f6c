import { z } from 'zod';
import { MARKETS, TIMEFRAMES } from '../../engine/markets.js';
import type { Ctx } from '../context.js';
import { defineTool } from '../define.js';
import { perDeck } from '../per-deck.js';
import { TIERS } from '../../core/principal.js';

const answerOf = (ctx: Ctx) => ({
  ok: true as const,
  deck: { base_url: ctx.urls.base, mcp: `${ctx.urls.base}/mcp`, join_url: ctx.urls.join, openapi: `${ctx.urls.base}/openapi.json` },
  sellers: ctx.offer.sellers,
  markets: [...MARKETS],
  timeframes: [...TIMEFRAMES],
  plans: ctx.offer.plans.plans.map((p) => ({ id: p.id, tier: p.tier, name: p.name, price_usdc: p.price_usdc, period_days: p.period_days })),
});

/** What a deck offers and where it is reached are fixed when it starts. */
const answer = perDeck(answerOf);

export const catalogue = defineTool({
  name: 'catalogue',
  title: 'Catalogue',
  description:
    "What the deck offers: its sellers (endpoint, card, tools), the markets and timeframes of the tape, and the plans. Needs no key.",
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'none',
  output: z.object({
    ok: z.literal(true),
    deck: z.object({ base_url: z.string(), mcp: z.string(), join_url: z.string(), openapi: z.string() }).describe('where the deck is reached'),
    sellers: z.array(
      z.object({ id: z.string(), name: z.string(), description: z.string(), endpoint: z.string(), card_url: z.string(), tools: z.array(z.string()) }),
    ),
    markets: z.array(z.enum(MARKETS)),
    timeframes: z.array(z.enum(TIMEFRAMES)),
    plans: z.array(z.object({ id: z.string(), tier: z.enum(TIERS), name: z.string(), price_usdc: z.number(), period_days: z.number().int().nullable() })),
  }),
  rest: { method: 'GET', path: '/catalogue', tag: 'plans' },
  async run(ctx) {
    return answer(ctx);
  },
});
