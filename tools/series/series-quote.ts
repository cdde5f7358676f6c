import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { QuoteBody } from '../../services/series/quote-body.js';
import { quoteSeries, VAULT_NOT_BUILT } from '../../services/series/quoting.js';
import { QuoteAnswer } from '../../services/series/answers.js';

export const seriesQuote = defineTool({
  name: 'series_quote',
  title: 'Quote a series',
  description:
    'Quotes a standing hire: a series of epoch jobs under one mandate, one job per epoch. The venue decides the kind (external or vault) and the job class; the terms come from the coordination layer\'s pool quote. ' +
    'Answers { ok, quote, venue, per_epoch, seller_deposit_usdc, series_total_usdc (epochs x the per-epoch price), can_open, next }. Nothing is kept. ' +
    'A field failing its rule is 400 bad_input naming each field; 422 no_lane for a venue the layer does not list (naming the ones it does; GET /v1/series/quote lists them with the limits) or when no pool serves the hire; 422 external_no_cover when the cover is over the seller\'s deposit on an external venue. ' +
    'A vault-kind quote answers, with can_open false and why. Open the series with series_open (POST /v1/series { quote }).',
  input: QuoteBody,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  output: QuoteAnswer,
  access: 'none',
  invalid: 400,
  toolset: TOOLSETS.series,
  rest: { method: 'POST', path: '/v1/series/quote', errors: [422, 502, 503] },
  async run(ctx, body) {
    const q = await quoteSeries(ctx, body, { status: 400, prefix: '' });
    const { kind, class: cls, checks, evidence, per_epoch, seller_deposit_usdc } = q.terms;
    const canOpen = kind === 'external';
    return {
      ok: true,
      quote: q.quote,
      venue: { venue: q.quote.venue, kind, class: cls, checks, evidence },
      per_epoch,
      seller_deposit_usdc,
      series_total_usdc: q.series_total_usdc,
      can_open: canOpen,
      ...(canOpen ? {} : { why: VAULT_NOT_BUILT }),
      next: canOpen
        ? 'open the series, signed in, with POST /v1/series { quote } (tool series_open): it is quoted again there, since terms can move'
        : `nothing to open yet: ${VAULT_NOT_BUILT} (POST /v1/series answers 422 vault_not_built)`,
    };
  },
});
