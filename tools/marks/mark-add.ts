import { randomBytes } from 'node:crypto';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { DeckError } from '../../core/errors.js';
import { z } from 'zod';
import { Mark, MARK_LIMITS, MarkInput } from '../../services/marks/mark-schema.js';
import { answer } from '../../services/schemas.js';

export const marksAdd = defineTool({
  name: 'mark_add',
  title: 'Place a mark',
  description: `Places a level or a zone on a market. At most ${MARK_LIMITS.perMarket} per market and ${MARK_LIMITS.total} in all.`,
  input: MarkInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  access: 'session',
  output: answer({ mark: Mark.describe('the mark placed'), marks: z.array(Mark).describe('all your marks now') }),
  toolset: TOOLSETS.marks,
  rest: { method: 'POST', path: '/me/marks', errors: [409] },
  async run(ctx, input) {
    const mark = { id: `mk_${randomBytes(8).toString('hex')}`, ...input, created_at: ctx.clock() };
    const marks = await ctx.store.marks.add(ctx.principal.id, mark, (mine) => {
      if (mine.length >= MARK_LIMITS.total) throw new DeckError(409, 'cap_reached', `you have ${MARK_LIMITS.total} marks, the most there can be`);
      if (mine.filter((m) => m.market === input.market).length >= MARK_LIMITS.perMarket)
        throw new DeckError(409, 'cap_reached', `you have ${MARK_LIMITS.perMarket} marks on ${input.market}, the most one market can have`);
    });
    return { ok: true, mark, marks };
  },
});
