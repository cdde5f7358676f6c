import { z } from 'zod';
import type { ForgeRecord } from '../../store/forges.js';
import type { SessionCtx } from '../../services/context.js';
import { defineTool } from '../define.js';
import { DeckError } from '../../core/errors.js';
import { ForgeReadAnswer } from '../../services/studio/answers.js';

export const SeedHash = z.string().regex(/^[0-9a-f]{64}$/, 'a seed hash: 64 lowercase hex digits');

/** Your forge by its seed hash inside its two hours; anything else (another's seed included) is 404. */
export function myForge(ctx: SessionCtx, seed: string): ForgeRecord {
  const found = ctx.store.forges.get(ctx.principal.id, seed, ctx.clock());
  if (!found) throw new DeckError(404, 'not_found', 'no forge of yours has this seed hash in the last two hours');
  return found;
}

export const forgeRead = defineTool({
  name: 'forge_read',
  title: 'Read a forge',
  description: 'Your forge by its seed hash, for two hours after its cast: its code, the nine-class self-review and the scan. Another principal\'s seed reads as no forge (404).',
  input: z.object({ seed: SeedHash.describe('the seed_hash the forge returned') }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: ForgeReadAnswer,
  access: 'session',
  rest: { method: 'GET', path: '/studio/forge', errors: [404], tag: 'studio' },
  async run(ctx, { seed }) {
    const f = myForge(ctx, seed);
    return {
      ok: true,
      seed_hash: f.id,
      version: f.version,
      code: f.code,
      review: f.review,
      scan: f.scan,
      expires_at: new Date(f.expires_at).toISOString(),
    };
  },
});
