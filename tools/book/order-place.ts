import { z } from 'zod';
import { ORDER_TYPES, SIDES } from '../../engine/book/index.js';
import { MARKETS } from '../../engine/markets.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { badInput } from '../../core/errors.js';
import { capsOf, liveBook, ModelName, myModel } from '../../services/book/books.js';
import { placeOrder } from '../../services/book/place.js';
import { orderView } from '../../services/book/views.js';
import { OrderAnswer } from '../../services/book/answers.js';

const Price = z.number().finite().positive();

export const orderPlace = defineTool({
  name: 'order_place',
  title: 'Place an order',
  description:
    "Places a market or limit order on your book, or on one of your models' live books (model, on its market), on NQ, ES, YM, BTC, ETH or SOL: side buy or sell, size in contracts or coins, an optional stop and target kept by the venue for the position it opens. The paper venue fills it from the tape: a market order at the next bar's open, a limit when a later bar trades through it. Refused: a market closed by the CME calendar (409), anything over your caps (422 over_caps).",
  input: z
    .object({
      model: ModelName.optional().describe("one of your models: the order goes on that model's live book"),
      market: z.enum(MARKETS),
      side: z.enum(SIDES),
      size: z.number().finite().positive().describe("contracts (NQ, ES, YM) or coins (BTC, ETH, SOL), on the market's size step"),
      type: z.enum(ORDER_TYPES).optional().describe('market (default) or limit'),
      price: Price.optional().describe('the limit price (limit orders only), on the tick'),
      stop: Price.optional().describe('the protective stop of the position the order opens, on the tick'),
      target: Price.optional().describe('a resting target for it, on the tick'),
    })
    .strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  output: OrderAnswer,
  access: 'session',
  toolset: TOOLSETS.book,
  rest: { method: 'POST', path: '/book/orders', status: 201, errors: [404, 409, 502, 503] },
  async run(ctx, input) {
    const model = input.model ? myModel(ctx, input.model) : null;
    if (model && model.market !== input.market) throw badInput([{ field: 'market', message: `${model.name} trades ${model.market}` }]);
    const spec = {
      market: input.market,
      side: input.side,
      size: input.size,
      type: input.type ?? 'market',
      price: input.price ?? null,
      stop: input.stop ?? null,
      target: input.target ?? null,
    };
    const at = Math.floor(ctx.clock() / 1000);
    const order = await placeOrder(ctx, liveBook(ctx, model?.name ?? null), spec, capsOf(ctx, model), { source: 'order', why: null, at });
    return { ok: true, order: orderView(ctx.upstreams.venue, order) };
  },
});
