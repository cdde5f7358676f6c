import { z } from 'zod';
import { DeckError } from '../../core/errors.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { liveBook, ModelName, myModel } from '../../services/book/books.js';
import { orderView, positionView } from '../../services/book/views.js';
import { applyDecision, countRefused, readDecision } from '../../services/typed/decision.js';
import { TYPED_DECISION_PATH } from '../../services/typed/schema-path.js';
import { DecisionAnswer } from '../../services/typed/answers.js';

export const decisionPost = defineTool({
  name: 'decision_post',
  title: 'Post one typed decision',
  description: `Posts one typed decision (typed-decision.v1, GET ${TYPED_DECISION_PATH}) for one of your models, without a replay: enter or exit goes on the model's live book as a market order now, filled at the next bar's open; hold places nothing. A decision that fails the contract is refused naming its field (decision.<field>) and counted against the model; so is one the book refuses (409 when it cannot apply to the position, 422 over the model's caps).`,
  input: z
    .object({
      model: ModelName,
      decision: z.record(z.string(), z.unknown()).describe(`a typed-decision.v1 object (${TYPED_DECISION_PATH})`),
    })
    .strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  output: DecisionAnswer,
  access: 'session',
  toolset: TOOLSETS.typed,
  rest: { method: 'POST', path: '/typed/decisions', errors: [404, 409, 502, 503] },
  async run(ctx, input) {
    const model = myModel(ctx, input.model);
    const read = readDecision(input.decision, (path) => (path ? `decision.${path}` : 'decision'));
    if (!read.ok) {
      const problems = read.problems;
      await countRefused(ctx, model, problems, 'decision.');
      throw new DeckError(422, 'bad_decision', `the decision is not typed-decision.v1: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`, { problems });
    }
    const book = liveBook(ctx, model.name);
    const at = Math.floor(ctx.clock() / 1000);
    let order;
    try {
      order = await applyDecision(ctx, model, book, read.decision, at, 'decision.');
    } catch (error) {
      if (error instanceof DeckError && error.code !== 'market_closed' && Array.isArray(error.details.problems)) {
        await countRefused(ctx, model, error.details.problems as { field: string; message: string }[], 'decision.');
      }
      throw error;
    }
    const venue = ctx.upstreams.venue;
    return {
      ok: true,
      model: model.name,
      decision: read.decision,
      order: order ? orderView(venue, order) : null,
      position: positionView(venue.position(book.key, model.market)),
    };
  },
});
