import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeBrowser, person } from './support/browser.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { rpc, type RpcError } from './support/mcp.js';
import { callbackServer, form, MemoryProvider, pkce } from './support/oauth.js';
import { movableClock } from './support/clock.js';

// The OAuth door of the MCP authorization spec: the deck is the authorization server and the resource server of
// its MCP endpoints. An app signs a person in through the onboarding page and gets a deck session of that principal,
// bound to the endpoint it asked for.

let deck: TestDeck;
let app: Awaited<ReturnType<typeof callbackServer>>;

beforeAll(async () => {
  deck = await testDeck({ DECK_LOGIN_REFUSALS: '1000' });
  app = await callbackServer();
});
afterAll(async () => {
  await closeBrowser();
  await app.close();
  await deck.stop();
});

const ACCOUNT = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'account', arguments: {} } };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A client registered by dynamic registration, redirecting to the app's listener. */
async function registered(name = 'test app', base = deck.url): Promise<string> {
  const r = await call(`${base}/oauth/register`, { body: { client_name: name, redirect_uris: [app.url], token_endpoint_auth_method: 'none' } });
  expect(r.status).toBe(201);
  return r.body.client_id as string;
}

/** Sends the browser-less person to the authorization endpoint: the id of the request waiting for consent. */
async function authorize(clientId: string, challenge: string, resource: string | null, state = 'st', base = deck.url): Promise<{ status: number; location: string }> {
  const u = new URL(`${base}/oauth/authorize`);
  const q = { response_type: 'code', client_id: clientId, redirect_uri: app.url, code_challenge: challenge, code_challenge_method: 'S256', state, ...(resource ? { resource } : {}) };
  for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
  const res = await fetch(u, { redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location') ?? '' };
}

/** The person's consent over HTTP, as the page posts it: the redirect's query. */
async function consent(requestId: string, session: string, allow = true, base = deck.url): Promise<URLSearchParams> {
  const r = await call(`${base}/oauth/consent`, { body: { request: requestId, allow }, headers: { cookie: `deck_session=${session}` } });
  expect(r.status).toBe(200);
  return new URL(r.body.redirect as string).searchParams;
}

/** The whole flow without a browser: a code for `resource`, consented by the person whose session is given. */
async function codeFor(session: string, resource: string, clientId?: string, base = deck.url) {
  const client = clientId ?? (await registered(undefined, base));
  const { verifier, challenge } = pkce();
  const sent = await authorize(client, challenge, resource, 'st', base);
  expect(sent.status).toBe(302);
  const id = new URL(sent.location).searchParams.get('authorization')!;
  const back = await consent(id, session, true, base);
  return { client, verifier, code: back.get('code')! };
}

const exchange = (client: string, code: string, verifier: string, extra: Record<string, string> = {}, base = deck.url) =>
  form(`${base}/oauth/token`, { grant_type: 'authorization_code', client_id: client, code, code_verifier: verifier, redirect_uri: app.url, ...extra });

async function tokensFor(session: string, resource: string) {
  const { client, code, verifier } = await codeFor(session, resource);
  const t = await exchange(client, code, verifier);
  expect(t.status).toBe(200);
  return { client, access: t.body.access_token as string, refresh: t.body.refresh_token as string };
}

describe('metadata: where an MCP client finds the door', () => {
  it('serves Protected Resource Metadata (RFC 9728) for the deck and for each endpoint, naming the deck as its authorization server', async () => {
    for (const path of ['', '/mcp', '/mcp/studio', '/mcp/candles', '/mcp/copy']) {
      const r = await call(`${deck.url}/.well-known/oauth-protected-resource${path}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ resource: `${deck.url}${path}`, authorization_servers: [deck.url], bearer_methods_supported: ['header'] });
    }
    expect((await call(`${deck.url}/.well-known/oauth-protected-resource/mcp/nobody`)).status).toBe(404);
  });

  it('serves authorization server metadata (RFC 8414): code with PKCE S256 only, public clients, registration, revocation, metadata documents', async () => {
    const r = await call(`${deck.url}/.well-known/oauth-authorization-server`);
    expect(r.body).toMatchObject({
      issuer: deck.url,
      authorization_endpoint: `${deck.url}/oauth/authorize`,
      token_endpoint: `${deck.url}/oauth/token`,
      registration_endpoint: `${deck.url}/oauth/register`,
      revocation_endpoint: `${deck.url}/oauth/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
    });
  });

  it('answers a keyless call of a gated tool with HTTP 401, WWW-Authenticate naming the endpoint\'s metadata, and the -32001 join step', async () => {
    const a = await rpc(`${deck.url}/mcp/candles`, ACCOUNT);
    expect(a.status).toBe(401);
    expect(a.body).toMatchObject({ id: 1, error: { code: -32001, data: { next: { step: 'join', url: `${deck.url}/join` } } } });
    const res = await fetch(`${deck.url}/mcp/candles`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(ACCOUNT) });
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${deck.url}/.well-known/oauth-protected-resource/mcp/candles"`);
    // A bearer that does not verify says so in the challenge too.
    const bad = await fetch(`${deck.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...bearer('ds_nothing') }, body: JSON.stringify(ACCOUNT) });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${deck.url}/.well-known/oauth-protected-resource/mcp", error="invalid_token"`);
    // What answers without a key still does.
    expect((await rpc(`${deck.url}/mcp`, { jsonrpc: '2.0', id: 2, method: 'tools/list' })).status).toBe(200);
  });
});

describe('the SDK client signs a person in through the onboarding page, in a browser', () => {
  it('registers, sends the person to join and consent, exchanges the code and calls a gated tool as that person', async (ctx) => {
    const provider = new MemoryProvider(app.url, 'Pat\'s agent');
    const transport = new StreamableHTTPClientTransport(new URL(`${deck.url}/mcp/candles`), { authProvider: provider });
    const client = new Client({ name: 'oauth-agent', version: '1.0.0' });
    await client.connect(transport);
    // Anonymous until a gated call: the 401 starts the SDK's sign-in, which sends the person to the deck.
    await expect(client.callTool({ name: 'account', arguments: {} })).rejects.toThrow(UnauthorizedError);
    expect(provider.client?.client_id).toBeTruthy();
    expect(provider.authorizationUrl!.searchParams.get('resource')).toBe(`${deck.url}/mcp/candles`);

    const { context, page, violations } = await person(ctx, new URL(deck.url).origin);
    try {
      await page.goto(provider.authorizationUrl!.href);
      await page.getByRole('heading', { name: /Pat's agent asks to act as you/ }).waitFor();
      expect(await page.getByText(/not checked by the deck/).isVisible()).toBe(true);
      expect(await page.getByText(/the deck: candles/).isVisible()).toBe(true);
      // Not signed in: the person joins first and is shown the key once.
      expect(await page.getByRole('button', { name: 'Allow' }).isVisible()).toBe(false);
      await page.getByLabel('Name').fill('oauth-pat');
      await page.getByRole('button', { name: 'Get my key' }).click();
      const key = await page.getByRole('textbox', { name: /Your key/ }).inputValue();
      expect(key).toMatch(/^deck_live_/);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByText(/Signed in as oauth-pat\. Allow this app/).waitFor();
      await page.screenshot({ path: '/tmp/oauth-consent.png', fullPage: true });
      const returned = app.next();
      await page.getByRole('button', { name: 'Allow' }).click();
      const q = await returned;
      expect(q.get('state')).toBeTruthy();
      expect(q.get('iss')).toBe(deck.url);
      // The consent ran whole under the page's Content-Security-Policy.
      expect(violations).toEqual([]);

      await transport.finishAuth(q.get('code')!);
      const account = await client.callTool({ name: 'account', arguments: {} });
      expect(account.isError).toBeUndefined();
      expect(account.structuredContent).toMatchObject({ principal: { name: 'oauth-pat', tier: 'free' } });
      // The token is a deck session bound to /mcp/candles: the key reaches everything, the token that endpoint only.
      const token = provider.saved!.access_token;
      expect(token).toMatch(/^ds_/);
      expect(provider.saved!.expires_in).toBe(12 * 3600);
      expect((await rpc(`${deck.url}/mcp/studio`, ACCOUNT, bearer(token))).status).toBe(401);
      expect((await rpc(`${deck.url}/mcp/studio`, ACCOUNT, bearer(key))).status).toBe(200);
      await client.close();
    } finally {
      await context.close();
    }
  });

  it('signs in a person who pastes a key they already have, and sends the app back refused when they deny', async (ctx) => {
    const { key } = await signedIn(deck.url, 'oauth-keeper');
    const client = await registered('Denied app');
    const { challenge } = pkce();
    const sent = await authorize(client, challenge, `${deck.url}/mcp`, 'deny-state');
    const { context, page, violations } = await person(ctx, new URL(deck.url).origin);
    try {
      await page.goto(sent.location);
      await page.getByRole('heading', { name: /Denied app asks to act as you/ }).waitFor();
      await page.getByLabel(/Already have a key/).fill(key);
      await page.getByRole('button', { name: 'Sign in with my key' }).click();
      await page.getByText(/Signed in as oauth-keeper\. Allow this app/).waitFor();
      const returned = app.next();
      await page.getByRole('button', { name: 'Deny' }).click();
      const q = await returned;
      expect(q.get('error')).toBe('access_denied');
      expect(q.get('state')).toBe('deny-state');
      expect(q.get('code')).toBeNull();
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('what the door refuses', () => {
  let session: string;
  let key: string;
  beforeAll(async () => {
    ({ session, key } = await signedIn(deck.url, 'oauth-refusals'));
  });

  it('refuses a wrong PKCE verifier, and a code used twice (revoking what its first use gave)', async () => {
    const { client, code, verifier } = await codeFor(session, `${deck.url}/mcp`);
    const wrong = await exchange(client, code, pkce().verifier);
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const first = await exchange(client, code, verifier);
    expect(first.status).toBe(200);
    expect((await rpc(`${deck.url}/mcp`, ACCOUNT, bearer(first.body.access_token as string))).status).toBe(200);
    const again = await exchange(client, code, verifier);
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await rpc(`${deck.url}/mcp`, ACCOUNT, bearer(first.body.access_token as string))).status).toBe(401);
    const refreshed = await form(`${deck.url}/oauth/token`, { grant_type: 'refresh_token', client_id: client, refresh_token: first.body.refresh_token as string });
    expect(refreshed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('refuses a resource that is not the deck\'s, a missing one, and a token request for another resource than consented', async () => {
    const client = await registered();
    const { challenge } = pkce();
    const foreign = new URL((await authorize(client, challenge, 'https://elsewhere.example/mcp')).location);
    expect(foreign.origin + foreign.pathname).toBe(app.url);
    expect(foreign.searchParams.get('error')).toBe('invalid_target');
    const missing = new URL((await authorize(client, challenge, null)).location);
    expect(missing.searchParams.get('error')).toBe('invalid_request');

    const { client: c2, code, verifier } = await codeFor(session, `${deck.url}/mcp/candles`);
    const other = await exchange(c2, code, verifier, { resource: `${deck.url}/mcp/studio` });
    expect(other).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
  });

  it('binds a token to the endpoint it was asked for: /mcp/candles\'s is refused on /mcp/studio, /mcp and REST', async () => {
    const { access } = await tokensFor(session, `${deck.url}/mcp/candles`);
    expect((await rpc(`${deck.url}/mcp/candles`, ACCOUNT, bearer(access))).status).toBe(200);
    for (const path of ['/mcp/studio', '/mcp']) {
      const r = await rpc(`${deck.url}${path}`, ACCOUNT, bearer(access));
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ error: { code: -32001 } });
      // It says where it is bound, not only that it did not verify.
      expect((r.body as RpcError).error.message).toBe(
        `the bearer is bound to another endpoint, /mcp/candles, not ${path}: use it there, or get a token for ${deck.url}${path} (its OAuth resource)`,
      );
    }
    const me = await call(`${deck.url}/me`, { headers: bearer(access) });
    expect(me.status).toBe(401);
    expect(me.body.message).toMatch(/^this session is bound to \/mcp\/candles, not the REST routes: send "Authorization: Bearer /);
    // A bearer that is no session at all still says only that it did not verify.
    expect(((await rpc(`${deck.url}/mcp/studio`, ACCOUNT, bearer('deck_sess_nothing'))).body as RpcError).error.message).toBe('the bearer did not verify');
    // A token for the deck itself reaches every MCP endpoint.
    const { access: whole } = await tokensFor(session, deck.url);
    for (const path of ['/mcp', '/mcp/studio', '/mcp/candles', '/mcp/copy']) expect((await rpc(`${deck.url}${path}`, ACCOUNT, bearer(whole))).status).toBe(200);
  });

  it('acts as the same principal: the same account, tier and meter as the key', async () => {
    const { access } = await tokensFor(session, `${deck.url}/mcp`);
    const viaToken = await rpc(`${deck.url}/mcp`, { ...ACCOUNT, params: { name: 'meter', arguments: {} } }, bearer(access));
    const viaKey = await rpc(`${deck.url}/mcp`, { ...ACCOUNT, params: { name: 'meter', arguments: {} } }, bearer(key));
    expect((viaToken.body as { result: { structuredContent: unknown } }).result.structuredContent).toEqual((viaKey.body as { result: { structuredContent: unknown } }).result.structuredContent);
  });

  it('rotates refresh tokens; a spent one presented again ends the grant', async () => {
    const { client, refresh } = await tokensFor(session, `${deck.url}/mcp`);
    const next = await form(`${deck.url}/oauth/token`, { grant_type: 'refresh_token', client_id: client, refresh_token: refresh });
    expect(next.status).toBe(200);
    expect(next.body.refresh_token).not.toBe(refresh);
    const access = next.body.access_token as string;
    expect((await rpc(`${deck.url}/mcp`, ACCOUNT, bearer(access))).status).toBe(200);
    const replay = await form(`${deck.url}/oauth/token`, { grant_type: 'refresh_token', client_id: client, refresh_token: refresh });
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await rpc(`${deck.url}/mcp`, ACCOUNT, bearer(access))).status).toBe(401);
    const after = await form(`${deck.url}/oauth/token`, { grant_type: 'refresh_token', client_id: client, refresh_token: next.body.refresh_token as string });
    expect(after.status).toBe(400);
  });

  it('ends a grant by revocation (RFC 7009), by signing the token out, and by rotating the key', async () => {
    const revoked = await tokensFor(session, `${deck.url}/mcp`);
    expect((await form(`${deck.url}/oauth/revoke`, { client_id: revoked.client, token: revoked.access })).status).toBe(200);
    expect((await rpc(`${deck.url}/mcp`, ACCOUNT, bearer(revoked.access))).status).toBe(401);
    expect((await form(`${deck.url}/oauth/token`, { grant_type: 'refresh_token', client_id: revoked.client, refresh_token: revoked.refresh })).status).toBe(400);

    const out = await tokensFor(session, `${deck.url}/mcp`);
    expect((await call(`${deck.url}/logout`, { method: 'POST', headers: bearer(out.access) })).status).toBe(200);
    expect((await rpc(`${deck.url}/mcp`, ACCOUNT, bearer(out.access))).status).toBe(401);
    expect((await form(`${deck.url}/oauth/token`, { grant_type: 'refresh_token', client_id: out.client, refresh_token: out.refresh })).status).toBe(400);

    const rotated = await signedIn(deck.url, 'oauth-rotates');
    const held = await tokensFor(rotated.session, `${deck.url}/mcp`);
    expect((await rpc(`${deck.url}/mcp`, ACCOUNT, bearer(held.access))).status).toBe(200);
    expect((await call(`${deck.url}/me/key`, { body: { confirm: 'rotate' }, headers: bearer(rotated.key) })).status).toBe(200);
    expect((await rpc(`${deck.url}/mcp`, ACCOUNT, bearer(held.access))).status).toBe(401);
    expect((await form(`${deck.url}/oauth/token`, { grant_type: 'refresh_token', client_id: held.client, refresh_token: held.refresh })).status).toBe(400);
  });

  it('registers every client as public (no secret kept), and refuses a redirect URI over plain http elsewhere than loopback', async () => {
    const r = await call(`${deck.url}/oauth/register`, { body: { client_name: 'wants a secret', redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'client_secret_post' } });
    expect(r.status).toBe(201);
    expect(r.body.token_endpoint_auth_method).toBe('none');
    expect(r.body.client_secret).toBeUndefined();
    const plain = await call(`${deck.url}/oauth/register`, { body: { redirect_uris: ['http://app.example/cb'] } });
    expect(plain).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });
    expect(plain.body.error_description).toMatch(/redirect_uris\.0/);
  });
});

describe('an expired token', () => {
  let short: TestDeck;
  beforeAll(async () => {
    short = await testDeck({ DECK_SESSION_HOURS: String(1.5 / 3600) });
  });
  afterAll(() => short.stop());

  it('is refused once its session lifetime is over, and the refresh token gives a fresh one', async () => {
    const client = (await call(`${short.url}/oauth/register`, { body: { redirect_uris: [app.url] } })).body.client_id as string;
    const { verifier, challenge } = pkce();
    const u = new URL(`${short.url}/oauth/authorize`);
    for (const [k, v] of Object.entries({ response_type: 'code', client_id: client, redirect_uri: app.url, code_challenge: challenge, code_challenge_method: 'S256', resource: `${short.url}/mcp` })) u.searchParams.set(k, v);
    const id = new URL((await fetch(u, { redirect: 'manual' })).headers.get('location')!).searchParams.get('authorization')!;
    // The person's own session expires as fast: consent follows the sign-in at once.
    const { session: fresh } = await signedIn(short.url, 'oauth-expiry');
    const back = await call(`${short.url}/oauth/consent`, { body: { request: id, allow: true }, headers: { cookie: `deck_session=${fresh}` } });
    const code = new URL(back.body.redirect as string).searchParams.get('code')!;
    const t = await form(`${short.url}/oauth/token`, { grant_type: 'authorization_code', client_id: client, code, code_verifier: verifier, redirect_uri: app.url });
    expect(t.status).toBe(200);
    expect(t.body.expires_in).toBe(1);
    expect((await rpc(`${short.url}/mcp`, ACCOUNT, bearer(t.body.access_token as string))).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    const expired = await fetch(`${short.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...bearer(t.body.access_token as string) }, body: JSON.stringify(ACCOUNT) });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const renewed = await form(`${short.url}/oauth/token`, { grant_type: 'refresh_token', client_id: client, refresh_token: t.body.refresh_token as string });
    expect(renewed.status).toBe(200);
    expect((await rpc(`${short.url}/mcp`, ACCOUNT, bearer(renewed.body.access_token as string))).status).toBe(200);
  });
});

describe('how many client registrations are kept, and how long', () => {
  const NOW = Date.UTC(2025, 5, 1) / 1000;
  const clock = movableClock(NOW);
  let kept: TestDeck;
  beforeAll(async () => {
    kept = await testDeck({ DECK_OAUTH_CLIENTS: '3' }, clock);
  });
  afterAll(() => kept.stop());

  /** Whether the deck still knows a client: its authorization request is taken (302), or refused as invalid_client. */
  const known = async (client: string) => {
    const sent = await authorize(client, pkce().challenge, `${kept.url}/mcp`, 'st', kept.url);
    return sent.status === 302;
  };
  /** A grant for `client`, consented by a person signed in now. */
  const granted = async (client: string, who: string) => {
    const { session } = await signedIn(kept.url, who);
    const { code, verifier } = await codeFor(session, `${kept.url}/mcp`, client, kept.url);
    expect((await exchange(client, code, verifier, {}, kept.url)).status).toBe(200);
  };

  it('drops a registration never used a day after it was made; one a grant names stays', async () => {
    const unused = await registered('never used', kept.url);
    const used = await registered('used', kept.url);
    await granted(used, 'keeper-one');
    clock.advance(24 * 3600 - 60);
    expect(await known(unused)).toBe(true);
    clock.advance(120);
    expect(await known(unused)).toBe(false);
    const refused = await fetch(`${kept.url}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: unused, redirect_uri: app.url, code_challenge: pkce().challenge, code_challenge_method: 'S256', resource: `${kept.url}/mcp` })}`, { redirect: 'manual' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_client' });
    expect(await known(used)).toBe(true);
  });

  it('keeps DECK_OAUTH_CLIENTS at most: the one soonest to go gives way, never one a grant names; with every one named, a new one is refused', async () => {
    // Kept now: "used" (named by a grant). Two more fill the deck.
    const first = await registered('first', kept.url);
    clock.advance(60);
    const second = await registered('second', kept.url);
    clock.advance(60);
    const third = await registered('third', kept.url);
    expect(await known(first)).toBe(false);
    expect([await known(second), await known(third)]).toEqual([true, true]);
    await granted(second, 'keeper-two');
    await granted(third, 'keeper-three');
    const r = await call(`${kept.url}/oauth/register`, { body: { client_name: 'one too many', redirect_uris: [app.url] } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'temporarily_unavailable', error_description: 'the deck keeps 3 client registrations and every one is in use; try again later' });
    expect([await known(second), await known(third)]).toEqual([true, true]);
  });
});
