import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { ProvedAnswer } from '../../services/doors/answers.js';
import { verifySignIn } from '../../services/doors/email.js';

export const emailVerify = defineTool({
  name: 'email_verify',
  title: 'Finish signing in by email',
  description:
    "Spends a sign-in mail's link token ({ token }) or its address and code ({ email, code }). Linked to a principal: signed in as it, the deck_session cookie set as by POST /login. Linked to none: a proof (15 minutes) to join with (POST /join { name, proof }) or to link (POST /me/doors { proof }). A wrong, used or expired code or link is 401 and counts with the login throttle (429 while the address rests); five wrong codes end the sign-in.",
  input: z
    .object({
      token: z.string().min(1).max(200).optional().describe("the link's email_token (or email and code)"),
      email: z.email('an email address').max(254).optional().describe('the address the code was sent to'),
      code: z.string().regex(/^\d{6}$/, 'six digits').optional().describe('the six-digit code of the mail'),
    })
    .strict()
    .refine((i) => (i.token !== undefined) !== (i.email !== undefined && i.code !== undefined) && (i.token === undefined || (i.email === undefined && i.code === undefined)), {
      message: 'send the link token alone, or the email and the code',
      path: ['token'],
    }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  access: 'none',
  surface: 'rest',
  output: ProvedAnswer,
  toolset: TOOLSETS.identity,
  rest: { method: 'POST', path: '/auth/email/verify', cookie: 'set', errors: [401, 429, 503] },
  async run(ctx, { token, email, code }) {
    return { ok: true as const, ...(await verifySignIn(ctx, token !== undefined ? { token } : { email: email!, code: code! })) };
  },
});
