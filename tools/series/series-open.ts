import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { unixTime } from '../../services/schemas.js';
import { openSeries, SERIES_LIMITS } from '../../engine/series/index.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { badInput, DeckError } from '../../core/errors.js';
import { QuoteBody } from '../../services/series/quote-body.js';
import { quoteSeries, VAULT_NOT_BUILT } from '../../services/series/quoting.js';
import { chainedOrLogged, notWritten, nowS, seriesView } from '../../services/series/view.js';
import { SeriesOpenAnswer } from '../../services/series/answers.js';

export const seriesOpen = defineTool({
  name: 'series_open',
  title: 'Open a series',
  description:
    'Opens a standing hire from a quote body: it is quoted again with the layer (terms can move), then kept in state MANDATED with its id, validUntil, the mandate said in words and the epochs cut ' +
    '(index, window, paymentRef = sha256 of "{series_id}:{index}"). `from` (unix seconds, default now) is when the first epoch\'s window begins. ' +
    'Answers 201 { ok, series, next }. A vault-kind quote is 422 vault_not_built; the quote\'s refusals pass through; 503 when the series could not be kept (nothing opened).',
  input: z
    .object({
      quote: QuoteBody.describe('the quote body, as series_quote answered it under quote'),
      from: unixTime.optional().describe('unix seconds or ISO-8601 UTC: when the first epoch\'s window begins (default now)'),
    })
    .strict(),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  output: SeriesOpenAnswer,
  access: 'session',
  toolset: TOOLSETS.series,
  rest: { method: 'POST', path: '/v1/series', status: 201, errors: [422, 502, 503] },
  async run(ctx, input) {
    const now = nowS(ctx);
    const from = input.from ?? now;
    const { behind_s, ahead_s } = SERIES_LIMITS.from;
    if (from < now - behind_s || from > now + ahead_s)
      throw badInput([{ field: 'from', message: `from ${behind_s} seconds before now to ${ahead_s / 86_400} days after (now is ${now})` }]);
    const quoted = await quoteSeries(ctx, input.quote, { status: 422, prefix: 'quote.' });
    if (quoted.terms.kind === 'vault') throw new DeckError(422, 'vault_not_built', VAULT_NOT_BUILT, { venue: input.quote.venue });
    const record = openSeries({ id: `sr_${randomBytes(12).toString('hex')}`, ...quoted, from, now });
    const chained = await ctx.store.series.create(ctx.principal.id, record).catch((error: Error) => {
      throw notWritten(ctx, record.id, error, 'the series could not be kept: nothing is opened');
    });
    chainedOrLogged(ctx, record.id, chained);
    const series = seriesView(ctx, record, now);
    return { ok: true, series, next: series.next };
  },
});
