import { z } from 'zod';
import { marksInWords } from '../../engine/marks-words.js';
import { MARKETS } from '../../engine/markets.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { Mark } from '../../services/marks/mark-schema.js';
import { answer } from '../../services/schemas.js';

export const marksList = defineTool({
  name: 'marks',
  title: 'Your marks',
  description: 'The prices you placed by hand (levels and zones), with one plain sentence per market stating them.',
  input: z.object({ market: z.enum(MARKETS).optional() }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'session',
  output: answer({ marks: z.array(Mark), words: z.array(z.string()).describe('one plain sentence per market stating its marks') }),
  toolset: TOOLSETS.marks,
  rest: { method: 'GET', path: '/me/marks' },
  async run(ctx, { market }) {
    const all = ctx.store.marks.list(ctx.principal.id);
    const marks = market ? all.filter((m) => m.market === market) : all;
    return { ok: true, marks, words: marksInWords(marks) };
  },
});
