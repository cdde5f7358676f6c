import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { DeckError } from '../../core/errors.js';
import { RunId } from '../../services/book/books.js';
import { RunAnswer } from '../../services/agent/answers.js';

export const runStop = defineTool({
  name: 'run_stop',
  title: 'Stop a run',
  description: 'Stops one of your runs under way; its fills so far stay. A run already ended is answered as it ended.',
  input: z.object({ id: RunId }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: RunAnswer,
  access: 'session',
  toolset: TOOLSETS.agent,
  rest: { method: 'POST', path: '/agent/runs/:id/stop', body: 'none', errors: [404] },
  async run(ctx, { id }) {
    const run = await ctx.rail.stop(ctx.principal.id, id);
    if (!run) throw new DeckError(404, 'run_not_found', `you have no run ${id}`, { field: 'id' });
    return { ok: true, run };
  },
});
