import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { badInput } from '../../core/errors.js';
import { int } from '../../services/schemas.js';
import { actsOf } from '../../services/records/acts.js';
import { HistoryAnswer, LEDGER_KINDS } from '../../services/records/answers.js';

/** The most acts one page carries. */
const MAX_PAGE = 200;

export const history = defineTool({
  name: 'history',
  title: 'Your history',
  description:
    'Your own acts in time order, each with the ledger entry that proves it (ledger, seq, hash): every act the deck performed for you and recorded on the meter (forge, trial, rehearse, tape, plate, image, read_model, forecast, chat, grade, score, and what you recorded with POST /meter), your grade receipts (kind grade, ledger grades), your scores (kind score, ledger scores), your plans paid on chain (plan_claim), holder wallets linked (holder_link), house mandates recorded (mandate) and every move of your series (series_move). ' +
    `Paged: cursor is the index of the first act (0 unless told), limit at most ${MAX_PAGE} (50 unless told); next is the cursor of the next page, null on the last. kind keeps one kind. Read-only; another principal's acts are never listed.`,
  input: z
    .object({
      kind: z.string().regex(/^[a-z_]{1,32}$/, 'a kind of act').optional(),
      cursor: int.pipe(z.number().int().min(0)).optional(),
      limit: int.pipe(z.number().int().min(1).max(MAX_PAGE)).optional(),
    })
    .strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: HistoryAnswer,
  access: 'session',
  toolset: TOOLSETS.records,
  rest: { method: 'GET', path: '/records/history' },
  async run(ctx, { kind, cursor = 0, limit = 50 }) {
    const kinds = [...new Set([...ctx.offer.plans.prices.map((p) => p.action), ...LEDGER_KINDS])].sort();
    if (kind !== undefined && !kinds.includes(kind)) throw badInput([{ field: 'kind', message: `one of ${kinds.join(', ')}` }]);
    const acts = actsOf(ctx.store, ctx.principal.id).filter((a) => kind === undefined || a.kind === kind);
    const page = acts.slice(cursor, cursor + limit);
    return { ok: true, kinds, total: acts.length, cursor, next: cursor + limit < acts.length ? cursor + limit : null, acts: page };
  },
});
