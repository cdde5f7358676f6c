import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { ModelName, myModel } from '../../services/book/books.js';
import { modelView } from '../../services/agent/model-view.js';
import { ModelsMineAnswer, ModelAnswer } from '../../services/agent/answers.js';

export const modelsMine = defineTool({
  name: 'my_models',
  title: 'Your models',
  description: "Your registered models, each with its decide() endpoint, market, timeframe, caps and the answers the typed lane refused (in all and by field).",
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: ModelsMineAnswer,
  access: 'session',
  toolset: TOOLSETS.agent,
  rest: { method: 'GET', path: '/agent/models' },
  async run(ctx) {
    return { ok: true, models: ctx.store.models.list(ctx.principal.id).map(modelView) };
  },
});

export const modelRead = defineTool({
  name: 'my_model',
  title: 'One of your models',
  description: "One of your models, with the answers the typed lane refused (in all and by field). 404 when you have none of that name.",
  input: z.object({ name: ModelName }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: ModelAnswer,
  access: 'session',
  toolset: TOOLSETS.agent,
  rest: { method: 'GET', path: '/agent/models/:name', errors: [404] },
  async run(ctx, { name }) {
    return { ok: true, model: modelView(myModel(ctx, name)) };
  },
});
