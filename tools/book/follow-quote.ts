import { z } from 'zod';
import { CapsSchema, followQuote } from '../../engine/book/index.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { badInput } from '../../core/errors.js';
import { int } from '../../services/schemas.js';
import { PublicModelId, publicModel, settledBook, trackRecord } from '../../services/copy/public.js';
import { FollowQuoteAnswer } from '../../services/copy/answers.js';

/** The model's recent orders: its live fills of the last `days` days, the newest of them at most. */
const DEFAULT_DAYS = 30;
const MOST_ORDERS = 200;

export const followQuoteTool = defineTool({
  name: 'follow_quote',
  title: 'Quote following a model',
  description:
    `Quotes following a live model at your own size inside your own caps (max_order_size, max_notional in dollars, max_position, markets, allow_short): the model's recent orders (its live fills of the last since_days days, default ${DEFAULT_DAYS}, at most ${MOST_ORDERS}) scaled by one factor, size for the model's largest order or notional dollars for its largest in dollars, on the market's size grid, and every order your caps would have cut, with the cap and the size before and after. A quote of the past at your size, never a forecast. Needs the max tier (premium-99).`,
  input: z
    .object({
      model: PublicModelId,
      size: z.number().finite().positive().optional().describe("your size for the model's largest recent order (contracts or coins)"),
      notional: z.number().finite().positive().optional().describe("your dollars for the model's largest recent order in dollars"),
      caps: CapsSchema.describe('your own caps'),
      since_days: int.refine((n) => n >= 1 && n <= 90, '1 to 90').optional().describe(`how far back the model's orders are read (default ${DEFAULT_DAYS})`),
    })
    .strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: FollowQuoteAnswer,
  access: 'session',
  toolset: TOOLSETS.book,
  rest: { method: 'POST', path: '/copy/follow-quote', errors: [404, 502, 503] },
  async run(ctx, input) {
    if ((input.size === undefined) === (input.notional === undefined)) {
      throw badInput(['size', 'notional'].map((field) => ({ field, message: 'give exactly one of size and notional' })));
    }
    const m = publicModel(ctx, input.model);
    await settledBook(ctx, m);
    const since = Math.floor(ctx.clock() / 1000) - (input.since_days ?? DEFAULT_DAYS) * 86_400;
    const recent = trackRecord(ctx, m).fills.filter((f) => f.t >= since).slice(-MOST_ORDERS);
    const basis = input.size !== undefined ? { size: input.size } : { notional: input.notional! };
    const quote = followQuote(recent, basis, input.caps);
    return {
      ok: true as const,
      model: { id: m.id, market: m.model.market, timeframe: m.model.timeframe },
      basis,
      caps: input.caps,
      since,
      ...quote,
      note: "the model's past orders at your size inside your caps; a quote of what was, never a forecast",
    };
  },
});
