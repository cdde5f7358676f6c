import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { ForgeReadAnswer } from '../../services/studio/answers.js';
import { SeedHash, myForge } from '../../services/studio/forge-read.js';

export const forgeRead = defineTool({
  name: 'forge_read',
  title: 'Read a forge',
  description: 'Your forge by its seed hash, for two hours after its cast: its code, the nine-class self-review and the scan. Another principal\'s seed reads as no forge (404).',
  input: z.object({ seed: SeedHash.describe('the seed_hash the forge returned') }).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: ForgeReadAnswer,
  access: 'session',
  toolset: TOOLSETS.studio,
  rest: { method: 'GET', path: '/studio/forge', errors: [404] },
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
