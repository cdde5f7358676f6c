import { z } from 'zod';
import { TYPED_DECISION_VERSION, TypedDecisionSchema } from '../../engine/book/index.js';
import { OrderView, PositionView } from '../book/views.js';
import { answer } from '../schemas.js';

// The typed-decision lane's answers, each field as the tool answers it.

/** The contract as a JSON Schema document (its own keywords are JSON Schema's: the decisions under oneOf). */
export const TypedSchemaAnswer = z.strictObject({
  $id: z.url().describe("the document's own address on this deck"),
  title: z.literal(TYPED_DECISION_VERSION),
  description: z.string(),
  $schema: z.string().describe('the JSON Schema dialect'),
  oneOf: z.array(z.record(z.string(), z.unknown())).describe('one JSON Schema per action: hold, enter, exit'),
});

export const DecisionAnswer = answer({
  model: z.string(),
  decision: TypedDecisionSchema.describe('the decision as read against typed-decision.v1'),
  order: OrderView.nullable().describe('the market order it placed; null for hold'),
  position: PositionView.describe("the model's position on its market after it"),
});
