import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { answer } from '../../services/schemas.js';
import { sendSignIn } from '../../services/doors/email.js';

export const emailSend = defineTool({
  name: 'email_send',
  title: 'Sign in by email',
  description:
    'Sends a sign-in mail to the address: a six-digit code and a link, each good once for 15 minutes. Signed in through it, you are the principal the address is linked to; an address linked to none gives a proof to join with, or to link to the principal you are signed in as. The same mail goes either way. At most 5 mails an hour to one address and 20 from one client (429). 503 when the email door is not configured.',
  input: z.object({ email: z.email('an email address').max(254, 'at most 254 characters') }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  access: 'none',
  surface: 'rest',
  output: answer({
    sent: z.literal(true),
    to: z.string().describe('the address, masked'),
    expires_at: z.iso.datetime().describe('when the code and the link stop working'),
    next: z.string(),
  }),
  toolset: TOOLSETS.identity,
  rest: { method: 'POST', path: '/auth/email', errors: [429, 502, 503] },
  async run(ctx, { email }) {
    return sendSignIn(ctx, email);
  },
});
