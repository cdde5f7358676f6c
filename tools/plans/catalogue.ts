import { z } from 'zod';
import { MARKETS, MARKET_SPECS, TIMEFRAMES } from '../../engine/markets.js';
import { DEFAULT_COSTS, slippageOf } from '../../engine/stepper/index.js';
import type { HeldTape } from '../../store/tape-archive.js';
import type { Ctx } from '../../services/context.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { perDeck } from '../../services/per-deck.js';
import { TIERS } from '../../core/principal.js';
import { HeldListing } from '../../services/tape/held.js';

const answerOf = (ctx: Ctx) => ({
  ok: true as const,
  deck: { base_url: ctx.urls.base, mcp: `${ctx.urls.base}/mcp`, join_url: ctx.urls.join, openapi: `${ctx.urls.base}/openapi.json` },
  sellers: ctx.offer.sellers,
  markets: [...MARKETS],
  timeframes: [...TIMEFRAMES],
  costs: MARKETS.map((market) => {
    const { name, tick, point_value } = MARKET_SPECS[market];
    const { slippage_ticks, fee } = DEFAULT_COSTS[market];
    return { market, name, tick, point_value, slippage_ticks, slippage: slippageOf(market, DEFAULT_COSTS[market]), fee };
  }),
  plans: ctx.offer.plans.plans.map((p) => ({ id: p.id, tier: p.tier, name: p.name, price_usdc: p.price_usdc, period_days: p.period_days })),
});

/** What a deck offers and where it is reached are fixed when it starts. */
const offered = perDeck(answerOf);

type Answer = ReturnType<typeof answerOf> & { tape: { venue: string | null; held: readonly HeldTape[] } };

/**
 * The whole answer, one frozen value for each thing the archive holds (which it answers frozen, the same value until
 * it changes), so the JSON of an answer whose tape has not changed is written once, as the fixed part's is.
 */
const answers = new WeakMap<object, { held: readonly HeldTape[]; answer: Readonly<Answer> }>();

export const catalogue = defineTool({
  name: 'catalogue',
  title: 'Catalogue',
  description:
    "What the deck offers: its sellers (endpoint, card, tools), the markets and timeframes of the tape and what it holds (tape.held), each market's fill costs in a rehearsal (costs), and the plans. Needs no key.",
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
    costs: z
      .array(
        z.object({
          market: z.enum(MARKETS),
          name: z.string(),
          tick: z.number(),
          point_value: z.number().describe('dollars a point, one contract or coin'),
          slippage_ticks: z.number().describe('on market and stop fills; a target fills at its price'),
          slippage: z.number(),
          fee: z.object({ per_side: z.number(), unit: z.enum(['points', 'bps']) }),
        }),
      )
      .describe("what a rehearsal's fills cost, per market"),
    plans: z.array(z.object({ id: z.string(), tier: z.enum(TIERS), name: z.string(), price_usdc: z.number(), period_days: z.number().int().nullable() })),
    tape: z
      .object({
        venue: z.string().nullable().describe('where bars the archive lacks are asked (venue, or ccxt:<exchange>); null: the archive is the only source'),
        held: z.array(HeldListing).describe('per market and timeframe, what the archive keeps; 5m and 1h are also built from finer bars held'),
      })
      .describe('what the tape can serve'),
  }),
  toolset: TOOLSETS.plans,
  rest: { method: 'GET', path: '/catalogue' },
  async run(ctx) {
    const fixed = offered(ctx);
    const held = await ctx.store.archive.held();
    let kept = answers.get(fixed);
    if (kept?.held !== held) {
      kept = { held, answer: Object.freeze({ ...fixed, tape: Object.freeze({ venue: ctx.upstreams.tape.venueSource, held }) }) };
      answers.set(fixed, kept);
    }
    return kept.answer;
  },
});
