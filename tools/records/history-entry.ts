import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { DeckError } from '../../core/errors.js';
import { int } from '../../services/schemas.js';
import { ACT_LEDGERS, ownEntry } from '../../services/records/acts.js';
import { HistoryEntryAnswer } from '../../services/records/answers.js';

export const historyEntry = defineTool({
  name: 'history_entry',
  title: 'One act, as its ledger keeps it',
  description:
    'One of your acts by where it is chained (ledger meter, grades or scores, and its seq, as history lists them): the whole entry as the ledger keeps it, with its seq, time, the previous hash and its own hash, so it can be checked against the chain (ledger_verify). An entry that is not yours, or none, is 404.',
  input: z.object({ ledger: z.enum(ACT_LEDGERS), seq: int.pipe(z.number().int().min(1)) }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: HistoryEntryAnswer,
  access: 'session',
  toolset: TOOLSETS.records,
  rest: { method: 'GET', path: '/records/history/:ledger/:seq', errors: [404] },
  async run(ctx, { ledger, seq }) {
    const found = ownEntry(ctx.store, ctx.principal.id, ledger, seq);
    if (!found) throw new DeckError(404, 'not_found', `no act of yours at ${ledger} #${seq}`);
    const { principal_id: _mine, ...entry } = found.entry as { principal_id: string } & Record<string, unknown>;
    return { ok: true, ledger, seq: found.seq, at: new Date(found.at).toISOString(), prev: found.prev, hash: found.hash, entry };
  },
});
