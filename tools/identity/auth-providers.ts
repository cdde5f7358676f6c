import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { answer } from '../../services/schemas.js';

export const authProviders = defineTool({
  name: 'auth_providers',
  title: 'Sign-in doors',
  description: 'Which sign-in doors are open: the key door always; email magic links and X sign-in only when configured.',
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'none',
  surface: 'rest',
  output: answer({ email: z.boolean(), x: z.boolean(), key: z.literal(true) }),
  toolset: TOOLSETS.identity,
  rest: { method: 'GET', path: '/auth/providers' },
  // Each door beside the key is open when it is configured (the SMTP server and sender; the X app).
  async run(ctx) {
    return { ok: true, email: ctx.config.email !== null, x: ctx.config.x !== null, key: true };
  },
});
