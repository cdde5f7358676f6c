import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOLSETS } from '../toolsets.js';
import { DeckError } from '../../core/errors.js';
import { CODE_TTL_MS } from '../../services/oauth/authorizations.js';
import { vouchedHost } from '../../services/oauth/clients.js';
import { answer } from '../../services/schemas.js';

const RequestId = z.string().regex(/^ar_[A-Za-z0-9_-]{22}$/, 'the authorization request id the page was opened with');

const notWaiting = (id: string) =>
  new DeckError(404, 'authorization_not_found', `no authorization request ${id} is waiting: it expired, was answered, or the deck restarted; start again from your app`);

/** The address a redirect URI sends the person back to, as the page names it. */
const destination = (uri: string): string => {
  const u = new URL(uri);
  return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : `${u.protocol}//`;
};

export const oauthRequest = defineTool({
  name: 'oauth_request',
  title: 'An app asking to act as you',
  description:
    'What an app that sent you here asks for: its name (vouched for by its own domain when its id is the https address of its metadata, else only stated by the app), where you will be sent back, and which MCP endpoint its token will reach. Answered once with POST /oauth/consent.',
  input: z.object({ id: RequestId }).strict(),
  access: 'none',
  surface: 'rest',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: answer({
    client: z.object({ id: z.string(), name: z.string().nullable(), vouched_by: z.string().nullable().describe("the domain that vouches for the app's name; null: only the app states it") }),
    redirect_to: z.string().describe('where you will be sent back'),
    resource: z.object({ url: z.string(), name: z.string() }).describe("the MCP endpoint the app's token will reach"),
    expires_at: z.iso.datetime(),
  }),
  toolset: TOOLSETS.oauth,
  rest: { method: 'GET', path: '/oauth/requests/:id', errors: [404] },
  async run(ctx, { id }) {
    const r = ctx.oauth.authorizations.request(id, ctx.clock());
    if (!r) throw notWaiting(id);
    const resource = ctx.oauth.resources.find((x) => x.path === r.resource)!;
    return {
      ok: true,
      client: { id: r.client_id, name: r.client_name, vouched_by: vouchedHost(r.client_id) },
      redirect_to: destination(r.redirect_uri),
      resource: { url: resource.url, name: resource.name },
      expires_at: new Date(r.expires_at).toISOString(),
    };
  },
});

export const oauthConsent = defineTool({
  name: 'oauth_consent',
  title: 'Answer an app',
  description:
    'Answers an app\'s authorization request as the signed-in person: allow gives the app a code it exchanges for a deck session bound to the endpoint it asked for (12 hours, refreshed while the grant lives; your tier and meter; ended by signing it out, revoking it, or rotating your key); deny sends it back refused. Either way the request is answered once.',
  input: z.object({ request: RequestId, allow: z.boolean({ error: 'true to allow, false to deny' }) }).strict(),
  access: 'session',
  surface: 'rest',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  output: answer({ allowed: z.boolean(), redirect: z.string().describe('where to send the person back (with a code, or refused)') }),
  toolset: TOOLSETS.oauth,
  rest: { method: 'POST', path: '/oauth/consent', errors: [404] },
  async run(ctx, { request, allow }) {
    const now = ctx.clock();
    const r = ctx.oauth.authorizations.close(request, now);
    if (!r) throw notWaiting(request);
    const back = new URL(r.redirect_uri);
    if (r.state !== null) back.searchParams.set('state', r.state);
    // RFC 9207: the client can tell which server answered.
    back.searchParams.set('iss', ctx.oauth.issuer);
    if (!allow) {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'the person denied the request');
      ctx.log.info('oauth_denied', { client: r.client_id });
      return { ok: true, allowed: false, redirect: back.href };
    }
    const p = ctx.principal;
    const account = ctx.store.accounts.byId(p.id)!;
    const code = ctx.oauth.authorizations.mint(
      { client_id: r.client_id, redirect_uri: r.redirect_uri, code_challenge: r.code_challenge, resource: r.resource, principal_id: p.id, key_gen: account.key_gen, expires_at: now + CODE_TTL_MS },
      now,
    );
    back.searchParams.set('code', code);
    ctx.log.info('oauth_allowed', { name: p.name, client: r.client_id, resource: r.resource });
    return { ok: true, allowed: true, redirect: back.href };
  },
});
