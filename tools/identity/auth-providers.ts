import { z } from 'zod';
import { defineTool } from '../define.js';
import { answer } from '../schemas.js';

export const authProviders = defineTool({
  name: 'auth_providers',
  title: 'Sign-in doors',
  description: 'Which sign-in doors are open: the key door always; email magic links and X sign-in only when configured.',
  input: z.object({}).strict(),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  access: 'none',
  surface: 'rest',
  output: answer({ email: z.boolean(), x: z.boolean(), key: z.literal(true) }),
  rest: { method: 'GET', path: '/auth/providers', tag: 'identity' },
  // Email and X doors are not built: they read false until they are.
  async run() {
    return { ok: true, email: false, x: false, key: true };
  },
});
