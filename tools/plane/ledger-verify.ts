import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { DeckError } from '../../core/errors.js';
import { answer } from '../../services/schemas.js';

export const ledgerVerify = defineTool({
  name: 'ledger_verify',
  title: 'Verify a ledger',
  description:
    'Walks one ledger as it is kept on disk, from its first entry, checking that each entry carries the hash of the one before it and that its own hash is the hash of its contents. ' +
    'Answers intact, the entries that hold and the head they reach; at the first break, the line, the entry (seq), why, and the hash the chain expected against the one found. One walk at a time per principal (a long ledger is read whole).',
  input: z.object({ ledger: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a ledger name, as GET /plane/ledgers lists them') }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'session',
  guard: 'ledger_walk',
  output: answer({
    ledger: z.string(),
    intact: z.boolean(),
    checked: z.number().int().describe('entries that hold, from the first, up to the break'),
    head: z.string().describe('the hash of the last entry that holds'),
    break: z
      .object({
        line: z.number().int(),
        seq: z.number().int().nullable().describe('null when the line is not JSON'),
        why: z.string(),
        expected: z.string(),
        found: z.string().nullable(),
      })
      .nullable()
      .describe('the first break, when there is one'),
  }),
  toolset: TOOLSETS.plane,
  rest: { method: 'GET', path: '/plane/ledgers/:ledger/verify', errors: [404] },
  async run(ctx, { ledger }) {
    const names = await ctx.store.backend.ledgerNames();
    if (!names.includes(ledger)) throw new DeckError(404, 'no_such_ledger', `no ledger ${ledger}`, { ledgers: names });
    const walk = await ctx.store.backend.walkLedger(ledger);
    return { ok: true, ledger, intact: walk.break === null, checked: walk.checked, head: walk.head, break: walk.break };
  },
});
