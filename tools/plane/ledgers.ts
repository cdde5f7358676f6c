import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { answer } from '../../services/schemas.js';

export const ledgers = defineTool({
  name: 'ledgers',
  title: 'The hash-chained ledgers',
  description:
    "Every hash-chained ledger the deck keeps (the meter, the grade receipts, the scores, each forecast pair's issues and scores), each with its length (its last entry's seq) and head hash, read from the files as kept. " +
    'A head hash commits to everything before it: note it, and a later verify that walks to the same head shows nothing before it changed. Names only counts and hashes, never an entry.',
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'none',
  output: answer({
    ledgers: z.array(
      z.object({
        name: z.string(),
        length: z.number().int().nullable().describe("its last entry's seq; null when it is empty or its last line is not JSON"),
        head: z.string().nullable().describe("its last entry's hash"),
      }),
    ),
  }),
  toolset: TOOLSETS.plane,
  rest: { method: 'GET', path: '/plane/ledgers' },
  async run(ctx) {
    return { ok: true, ledgers: await ctx.store.backend.ledgerHeads() };
  },
});
