import { z } from 'zod';
import { digest } from '../../upstream/identity/keys.js';
import { defineTool } from '../define.js';

export const logout = defineTool({
  name: 'logout',
  title: 'Sign out',
  description: 'Ends this session and clears the cookie. The key stays valid.',
  input: z.object({}).strict(),
  access: 'none',
  surface: 'rest',
  rest: { method: 'POST', path: '/logout', body: 'none', cookie: 'clear', tag: 'identity' },
  async run(ctx) {
    if (ctx.credential?.kind === 'session') await ctx.store.sessions.remove(digest(ctx.credential.value));
    return { ok: true };
  },
});
