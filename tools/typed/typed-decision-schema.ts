import { z } from 'zod';
import { TYPED_DECISION_VERSION, TypedDecisionSchema } from '../../engine/book/index.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { TypedSchemaAnswer } from '../../services/typed/answers.js';
import { TYPED_DECISION_PATH } from '../../services/typed/schema-path.js';

/** The contract as JSON Schema, made once from the zod schema every answer is validated with. */
const SCHEMA = z.toJSONSchema(TypedDecisionSchema, { io: 'input' }) as Record<string, unknown>;

export const typedSchema = defineTool({
  name: 'typed_decision_schema',
  title: 'typed-decision.v1',
  description:
    "The typed-decision.v1 contract as a JSON Schema document: what a model's decide() answers for each closed bar (hold; enter long or short with size, stop and an optional target; exit), every decision with its why. Every answer is validated against it; a refused one names its field and is counted against the model.",
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: TypedSchemaAnswer,
  access: 'none',
  // A document, not an agent's act: agents read the same schema in tools/list.
  surface: 'rest',
  toolset: TOOLSETS.typed,
  rest: { method: 'GET', path: TYPED_DECISION_PATH },
  async run(ctx) {
    return {
      $id: `${ctx.urls.base}${TYPED_DECISION_PATH}`,
      title: TYPED_DECISION_VERSION,
      description:
        "A model's decision for one closed bar, as its decide() endpoint answers the deck's POST { version, model, run, mode, market, timeframe, bar { t, o, h, l, c, v }, index, position { side, size, entry, stop, target } }. hold does nothing; enter opens a position from flat with a market order at the next bar's open, its stop kept by the venue; exit closes the whole position at the next bar's open.",
      ...SCHEMA,
    };
  },
});
