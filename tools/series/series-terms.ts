import { z } from 'zod';
import { MARKETS } from '../../engine/markets.js';
import { SERIES_LIMITS, VENUE_KINDS, type VenueKind } from '../../engine/series/index.js';
import type { Venue } from '../../upstream/coord/wire.js';
import { DeckError } from '../../core/errors.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { pricesBySeller, QuoteBody } from '../../services/series/quote-body.js';
import { TermsAnswer } from '../../services/series/answers.js';

/** The quote body's JSON Schema, made once from the schema that validates it. */
const BODY = z.toJSONSchema(QuoteBody, { io: 'input', unrepresentable: 'any' });

export const seriesTerms = defineTool({
  name: 'series_terms',
  title: 'What a series may be',
  description:
    'The venues the coordination layer lists, by kind (the evidence its judge reads there: vault or external), the limits (epochs, epoch length, price by seller, markets, cover) and the quote body\'s JSON Schema. Nothing is created. ' +
    "The limits and the body are the deck's own: when the layer is not configured or does not answer, they are still served, with venues null and venues_unknown saying why (its status, error and message).",
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: TermsAnswer,
  access: 'none',
  // Agents read the body's schema from series_quote in tools/list, and the venues from its refusals.
  surface: 'rest',
  toolset: TOOLSETS.series,
  rest: { method: 'GET', path: '/v1/series/quote' },
  async run(ctx) {
    // Only the venues are the layer's: without it they are unknown, not the whole answer.
    const venues = await ctx.upstreams.coord.venues().catch((e: unknown) => {
      if (e instanceof DeckError && (e.status === 502 || e.status === 503)) return e;
      throw e;
    });
    const { epochs, epoch_s, span_s, usdc_decimals } = SERIES_LIMITS;
    return {
      ok: true as const,
      venues: venues instanceof DeckError ? null : (Object.fromEntries(VENUE_KINDS.map((kind) => [kind, venues.filter((v) => v.kind === kind)])) as Record<VenueKind, Venue[]>),
      venues_unknown: venues instanceof DeckError ? { status: venues.status as 502 | 503, error: venues.code, message: venues.message } : null,
      limits: {
        epochs,
        epoch_s,
        span_s,
        price: { unit: 'USDC per epoch (one job)', decimals: usdc_decimals, by_seller: pricesBySeller(ctx.offer.plans) },
        markets: [...MARKETS],
        cover: { unit: 'USDC', external: 'at most the seller\'s deposit' },
      },
      body: BODY,
    };
  },
});
