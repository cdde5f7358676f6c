import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { Decision } from '../../services/studio/answers.js';
import { LabAnswer } from '../../services/records/answers.js';

/** What a studio record's grade receipt states, as far as the lab shows it. */
const Receipt = z.object({
  rubric: z.string(),
  seed_hash: z.string(),
  decision: Decision,
  receipt_hash: z.string(),
  rehearsal: z.object({ digest: z.string() }).nullable(),
});

export const lab = defineTool({
  name: 'lab',
  title: 'The concluded lab',
  description:
    "Every strategy its owner brought through the studio to a grade (its studio record rests at graded or rejected), house-wide, by digest only: the seed hash, the grade receipt's hash, the decision, the rubric and the rehearsal judged (its digest). " +
    'No words, no name, no strategy label: nothing of what the trader said leaves the deck. Oldest first. Needs no key.',
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: LabAnswer,
  access: 'none',
  toolset: TOOLSETS.records,
  rest: { method: 'GET', path: '/records/lab' },
  async run(ctx) {
    const concluded = ctx.store.studio
      .everyRecord()
      .filter((r) => r.state === 'graded' || r.state === 'rejected')
      .flatMap((r) => {
        const receipt = Receipt.safeParse(r.grade?.receipt);
        if (!receipt.success) return [];
        const g = receipt.data;
        return [{ seed_hash: g.seed_hash, receipt_hash: g.receipt_hash, decision: g.decision, rubric: g.rubric, rehearsal_digest: g.rehearsal?.digest ?? null, concluded_at: r.updated_at }];
      })
      .sort((a, b) => (a.concluded_at ?? '').localeCompare(b.concluded_at ?? '') || a.receipt_hash.localeCompare(b.receipt_hash));
    return { ok: true, count: concluded.length, concluded };
  },
});
