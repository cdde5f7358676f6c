import { z } from 'zod';
import { CapsSchema, within } from '../../engine/book/index.js';
import { MARKETS } from '../../engine/markets.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { DeckError } from '../../core/errors.js';
import { ModelName } from '../../services/book/books.js';
import { decideUrl } from '../../services/agent/decide-url.js';
import { modelView } from '../../services/agent/model-view.js';
import { ModelAnswer } from '../../services/agent/answers.js';

/** Models one principal may register. */
const MOST_MODELS = 20;

export const modelRegister = defineTool({
  name: 'model_register',
  title: 'Register a model',
  description:
    "Registers a trading model of yours: its decide() endpoint (an https URL of yours: the deck POSTs it each closed bar and your model's position, and reads back a typed-decision.v1 answer), the market and timeframe it trades, and its caps (inside yours). Run it with POST /agent/runs. synthetic marks one of the house's own example strategies run to fill the book (house tier only): the copy seller never lists those.",
  input: z
    .object({
      name: ModelName,
      decide_url: z.string().max(2048).describe('https URL of your decide() endpoint, at a public address'),
      market: z.enum(MARKETS),
      timeframe: z.enum(['1m', '5m', '1h']).optional().describe('the bars decide() is sent (default 1m)'),
      caps: CapsSchema.optional().describe("the model's caps, inside your own"),
      synthetic: z.boolean().optional().describe("a house example strategy filling the book (house tier only): never listed as a model"),
    })
    .strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  output: ModelAnswer,
  access: 'session',
  toolset: TOOLSETS.agent,
  rest: { method: 'POST', path: '/agent/models', status: 201, errors: [403, 409] },
  async run(ctx, input) {
    const p = ctx.principal;
    if (input.synthetic && p.tier !== 'house') throw new DeckError(403, 'house_only', 'only the house registers synthetic book actors', { field: 'synthetic' });
    const model = {
      name: input.name,
      owner: p.name,
      decide_url: await decideUrl(input.decide_url, ctx.upstreams.named),
      market: input.market,
      timeframe: input.timeframe ?? '1m',
      caps: within(input.caps ?? {}, ctx.store.bookCaps.get(p.id)),
      synthetic: input.synthetic ?? false,
      created_at: ctx.clock(),
      refused: { total: 0, fields: {} },
    };
    const added = await ctx.store.models.add(p.id, model, MOST_MODELS);
    if (added === 'taken') throw new DeckError(409, 'model_exists', `you already have a model named ${input.name}`, { field: 'name' });
    if (added === 'full') throw new DeckError(409, 'models_full', `you have ${MOST_MODELS} models, the most one principal may register`, { field: 'name' });
    return { ok: true, model: modelView(model) };
  },
});
