import { z } from 'zod';
import { MARKETS, TIMEFRAMES } from '../../engine/markets.js';
import type { Ctx } from '../context.js';
import { defineTool } from '../define.js';
import { perDeck } from '../per-deck.js';

const answerOf = (ctx: Ctx) => ({
  ok: true,
  deck: { base_url: ctx.urls.base, mcp: `${ctx.urls.base}/mcp`, join_url: ctx.urls.join, openapi: `${ctx.urls.base}/openapi.json` },
  sellers: ctx.offer.sellers,
  markets: MARKETS,
  timeframes: TIMEFRAMES,
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
  rest: { method: 'GET', path: '/catalogue', tag: 'plans' },
  async run(ctx) {
    return answer(ctx);
  },
});
