import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { endSession } from '../../services/oauth/tokens.js';
import { answer } from '../../services/schemas.js';

export const logout = defineTool({
  name: 'logout',
  title: 'Sign out',
  description: 'Ends this session and clears the cookie. The key stays valid. A session an app holds by OAuth ends with its refresh token.',
  input: z.object({}).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'none',
  surface: 'rest',
  output: answer({}),
  toolset: TOOLSETS.identity,
  rest: { method: 'POST', path: '/logout', body: 'none', cookie: 'clear' },
  async run(ctx) {
    if (ctx.credential?.kind === 'session') await endSession(ctx, ctx.credential.value);
    return { ok: true };
  },
});
