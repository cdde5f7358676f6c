import { z } from 'zod';
import { digest } from '../../upstream/identity/keys.js';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { answer } from '../../services/schemas.js';

export const rotateKey = defineTool({
  name: 'rotate_key',
  title: 'Rotate your key',
  description:
    'Replaces your key. The previous key and every other session signed in with it stop at this instant; the session that asks stays signed in, so an answer lost on the way is mended by rotating again from it. The body must be { "confirm": "rotate" }. The new key is shown once.',
  input: z.object({ confirm: z.literal('rotate', { error: 'must be the word rotate' }) }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  access: 'session',
  surface: 'rest',
  output: answer({ api_key: z.string().describe('the new key, shown once'), shown_once: z.literal(true) }),
  toolset: TOOLSETS.identity,
  rest: { method: 'POST', path: '/me/key', errors: [502, 503] },
  // One at a time per principal, so the embedded door is never more than one key ahead of the account.
  guard: 'key_rotation',
  async run(ctx) {
    const p = ctx.principal;
    const api_key = await ctx.upstreams.door.rotate(p.id);
    // The rotation's commit: cut before it, the sessions hold and the embedded door takes the old key back at start.
    // It keeps the session that asked (none when the key itself asked): the new key is only in this answer.
    await ctx.store.accounts.bumpKeyGen(p.id, ctx.credential?.kind === 'session' ? digest(ctx.credential.value) : null);
    ctx.log.info('key_rotated', { name: p.name });
    return { ok: true, api_key, shown_once: true };
  },
});
