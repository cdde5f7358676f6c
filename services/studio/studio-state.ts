import { createHash } from 'node:crypto';
import { z } from 'zod';
import { PARTS, type PartName, type Status } from '../../engine/reader/index.js';
import { STATES, viewOf, type Gate } from '../../engine/studio/machine.js';
import type { StudioRecord } from '../../store/studio.js';
import type { SessionCtx } from '../context.js';

/** The strategy a studio record is kept under; one record per principal's strategy. */
export const DEFAULT_STRATEGY = 'main';

export const Strategy = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, '1 to 32 of a-z, 0-9, _ and -, starting with a letter or digit')
  .optional()
  .describe(`which of your strategies (default ${DEFAULT_STRATEGY}); each has its own record and state`);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Which gates are earned and what each rests on: the words the reading read, the seed the forge named (and whether
 * it is still kept), the rehearsal's seed, window, digest and how much of that window the tape held, and the grade's
 * decision with the seed and rehearsal it judged. A gate's rests_on is null when the record holds nothing for it.
 */
function coverageOf(ctx: SessionCtx, r: StudioRecord) {
  const earned = (g: Gate) => STATES[r.state].done.includes(g);
  const kept = r.seed ? ctx.store.forges.get(ctx.principal.id, r.seed.seed_hash, ctx.clock()) : null;
  return {
    read: {
      earned: earned('read'),
      rests_on: r.reading && r.words !== null
        ? { words_sha256: sha256(r.words), chars: r.words.length, parts: Object.fromEntries(PARTS.map((p) => [p, r.reading![p].status])) as Record<PartName, Status> }
        : null,
    },
    forge: {
      earned: earned('forge'),
      rests_on: r.seed ? { ...r.seed, kept: kept !== null, expires_at: kept ? new Date(kept.expires_at).toISOString() : null } : null,
    },
    rehearse: {
      earned: earned('rehearse'),
      rests_on: r.rehearsal && r.seed ? { seed_hash: r.seed.seed_hash, ...r.rehearsal } : null,
    },
    grade: {
      earned: earned('grade'),
      rests_on: r.grade && r.seed && r.rehearsal ? { seed_hash: r.seed.seed_hash, rehearsal_digest: r.rehearsal.digest, decision: r.grade.decision } : null,
    },
  };
}

/** A record as GET /studio/state answers it, and as every move answers the state after it. */
export function stateOf(ctx: SessionCtx, record: StudioRecord) {
  return { record, view: viewOf(record.state), coverage: coverageOf(ctx, record) };
}
