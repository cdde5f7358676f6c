import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { DeckError } from '../../core/errors.js';
import { ModelName, RunId } from '../../services/book/books.js';
import { RunAnswer, RunsAnswer } from '../../services/agent/answers.js';

export const runRead = defineTool({
  name: 'run_read',
  title: 'A run',
  description:
    "One of your runs as it stands, while it runs too: state (running, done, stopped), bars done of bars_total or the budget, the last bar, decisions by action, orders, fills, retries, time spent waiting on decide(), and how it ended (the reason a misbehaving decide() stopped it, with the fields a refused answer named).",
  input: z.object({ id: RunId }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: RunAnswer,
  access: 'session',
  toolset: TOOLSETS.agent,
  rest: { method: 'GET', path: '/agent/runs/:id', errors: [404] },
  async run(ctx, { id }) {
    const run = ctx.rail.view(ctx.principal.id, id);
    if (!run) throw new DeckError(404, 'run_not_found', `you have no run ${id}`, { field: 'id' });
    return { ok: true, run };
  },
});

export const runsList = defineTool({
  name: 'runs',
  title: 'Your runs',
  description: 'Your runs, newest first (of one model when named), each as GET /agent/runs/{id} shows it.',
  input: z.object({ model: ModelName.optional() }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: RunsAnswer,
  access: 'session',
  toolset: TOOLSETS.agent,
  rest: { method: 'GET', path: '/agent/runs' },
  async run(ctx, { model }) {
    const p = ctx.principal.id;
    const runs = ctx.store.runs
      .list(p)
      .filter((r) => !model || r.model === model)
      .map((r) => ctx.rail.view(p, r.id)!)
      .reverse();
    return { ok: true, runs };
  },
});
