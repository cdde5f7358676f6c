import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { DeckError } from '../../core/errors.js';
import { clientOf } from '../../services/identity/client.js';
import { openSession } from '../../services/identity/session.js';
import { resting } from '../../services/identity/login-throttle.js';
import { answer } from '../../services/schemas.js';

export const login = defineTool({
  name: 'login',
  title: 'Sign in',
  description:
    'Exchanges your key for a session: the httpOnly deck_session cookie, valid 12 hours. Its value is also accepted as the bearer on every route and on MCP. The key is verified at the identity door, whose verdict alone is trusted.',
  input: z.object({ key: z.string().min(1, 'the key you were shown at join').max(512, 'at most 512 characters') }).strict(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  access: 'none',
  surface: 'rest',
  output: answer({
    name: z.string(),
    agent_id: z.string(),
    expires_at: z.iso.datetime().describe('when the session ends'),
    session: z.object({ token: z.string(), expires_at: z.number().int() }).describe('the session, which REST moves into the deck_session cookie (never in the body)'),
  }),
  toolset: TOOLSETS.identity,
  rest: { method: 'POST', path: '/login', cookie: 'set', errors: [401, 429, 502, 503] },
  async run(ctx, { key }) {
    const now = ctx.clock();
    const client = clientOf(ctx, ctx.caller);
    const restingS = ctx.login.restingFor(client, now);
    if (restingS > 0) throw resting(restingS);
    const found = await ctx.upstreams.door.verify(key);
    const account = found ? ctx.store.accounts.byId(found.id) : null;
    if (!account) {
      await ctx.login.refused(client, now);
      throw new DeckError(401, 'key_refused', 'the key was refused (unknown, rotated or revoked)');
    }
    await ctx.login.cleared(client);
    const session = await openSession(ctx, account);
    ctx.log.info('login', { name: account.name });
    return { ok: true, name: account.name, agent_id: account.agent_id, expires_at: new Date(session.expires_at).toISOString(), session };
  },
});
