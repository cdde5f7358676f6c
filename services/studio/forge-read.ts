import { z } from 'zod';
import type { ForgeRecord } from '../../store/forges.js';
import type { SessionCtx } from '../context.js';
import { DeckError } from '../../core/errors.js';

export const SeedHash = z.string().regex(/^[0-9a-f]{64}$/, 'a seed hash: 64 lowercase hex digits');

/** Your forge by its seed hash inside its two hours; anything else (another's seed included) is 404. */
export function myForge(ctx: SessionCtx, seed: string): ForgeRecord {
  const found = ctx.store.forges.get(ctx.principal.id, seed, ctx.clock());
  if (!found) throw new DeckError(404, 'not_found', 'no forge of yours has this seed hash in the last two hours');
  return found;
}
