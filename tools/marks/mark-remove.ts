import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { DeckError } from '../../core/errors.js';
import { Mark, MARK_ID } from '../../services/marks/mark-schema.js';
import { answer } from '../../services/schemas.js';

export const marksRemove = defineTool({
  name: 'mark_remove',
  title: 'Remove a mark',
  description: 'Removes one of your marks by its id (as marks lists it): it is gone for good, and no plate drawn after draws it.',
  input: z.object({ id: z.string().regex(MARK_ID, 'not a mark id') }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  access: 'session',
  output: answer({ marks: z.array(Mark).describe('your marks left') }),
  toolset: TOOLSETS.marks,
  rest: { method: 'DELETE', path: '/me/marks', errors: [404] },
  async run(ctx, { id }) {
    const marks = await ctx.store.marks.remove(ctx.principal.id, id);
    if (!marks) throw new DeckError(404, 'not_found', 'no such mark of yours');
    return { ok: true, marks };
  },
});
