import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { fromAddress, type Client } from './support/from-address.js';
import { call } from './support/http.js';
import { legacyClient, rpc, type RpcError } from './support/mcp.js';

let deck: TestDeck;
beforeAll(async () => {
  deck = await testDeck();
});
afterAll(() => deck.stop());

const joined = async (name: string, url = deck.url): Promise<string> => {
  const { status, body } = await call(`${url}/join`, { body: { name } });
  if (status !== 201) throw new Error(`join ${name}: ${status}`);
  return body.key as string;
};

/** A well-formed key no door ever minted. */
const stranger = (n = 0) => `deck_live_${String(n).padStart(43, 'x')}`;

/** The deck_session cookie's attributes as Set-Cookie stated them (names lower-cased). */
function sessionCookie(headers: Headers): { value: string; attrs: Map<string, string> } {
  const line = headers.getSetCookie().find((c) => c.startsWith('deck_session='));
  if (!line) throw new Error('no deck_session cookie was set');
  const [pair, ...rest] = line.split(';').map((p) => p.trim());
  const attrs = new Map(rest.map((a) => [a.split('=')[0]!.toLowerCase(), a.slice(a.indexOf('=') + 1)] as const));
  return { value: pair!.slice('deck_session='.length), attrs };
}

const login = (key: unknown, url = deck.url) =>
  fetch(`${url}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key }) });

/** The account tool over MCP, through the SDK client, signed in with `bearer`. */
async function accountOverMcp(bearer: string) {
  const client = await legacyClient(`${deck.url}/mcp`, { authorization: `Bearer ${bearer}` });
  try {
    return await client.callTool({ name: 'account', arguments: {} });
  } finally {
    await client.close();
  }
}

const accountCall = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'account', arguments: {} } };

describe('POST /login', () => {
  it('answers { ok, name, agent_id } and sets deck_session: HttpOnly, SameSite, path /, about 12 hours', async () => {
    const key = await joined('lena');
    const before = Date.now();
    const res = await login(key);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ ok: true, name: 'lena', agent_id: expect.stringMatching(/^agent_/) });

    const { value, attrs } = sessionCookie(res.headers);
    expect(value.length).toBeGreaterThan(40);
    // The session lives in the cookie only, never in the JSON body.
    expect(JSON.stringify(body)).not.toContain(value);
    expect(attrs.has('httponly')).toBe(true);
    expect(attrs.get('samesite')).toMatch(/^(Lax|Strict)$/i);
    expect(attrs.get('path')).toBe('/');
    const expires = Date.parse(attrs.get('expires')!);
    const twelveHours = 12 * 3_600_000;
    expect(Math.abs(expires - (before + twelveHours))).toBeLessThan(60_000);
    // Plain http here: a Secure cookie would never be sent back, so the deck sets Secure only over https.
    expect(attrs.has('secure')).toBe(false);
  });

  it('sets the cookie Secure when the deck\'s public address is https, though this request came over http', async () => {
    const behindTls = await testDeck({ DECK_PUBLIC_URL: 'https://deck.example' });
    // The deck answers here, on plain http, as it would behind a proxy that ends TLS.
    const local = `http://127.0.0.1:${(behindTls.server.address() as AddressInfo).port}`;
    try {
      const res = await login(await joined('tls', local), local);
      expect(res.status).toBe(200);
      expect(sessionCookie(res.headers).attrs.has('secure')).toBe(true);
    } finally {
      await behindTls.stop();
    }
  });

  it('gives a session whose value is the bearer on GET /plans, GET /me and MCP tools/call account', async () => {
    const s = await signedIn(deck.url, 'mira');
    expect((await call(`${deck.url}/plans`, { headers: s.bearer })).body.principal.name).toBe('mira');
    const me = await call(`${deck.url}/me`, { headers: s.bearer });
    expect(me.status).toBe(200);
    expect(me.body.principal.name).toBe('mira');
    expect((await call(`${deck.url}/me`, { headers: { cookie: `deck_session=${s.session}` } })).body.principal.name).toBe('mira');

    const byCookie = await rpc(`${deck.url}/mcp`, accountCall, { cookie: `deck_session=${s.session}` });
    expect(byCookie.status).toBe(200);
    expect(JSON.stringify(byCookie.body)).toMatch(/"name":"mira"/);

    const result = await accountOverMcp(s.session);
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { principal: { name: string } }).principal.name).toBe('mira');
  });

  it('ends a session when its lifetime is over (DECK_SESSION_HOURS), while the key still signs in', async () => {
    const brief = await testDeck({ DECK_SESSION_HOURS: String(1.5 / 3600) });
    try {
      const s = await signedIn(brief.url, 'brief');
      expect((await call(`${brief.url}/me`, { headers: s.bearer })).status).toBe(200);
      await sleep(1_700);
      expect((await call(`${brief.url}/me`, { headers: s.bearer })).status).toBe(401);
      expect((await login(s.key, brief.url)).status).toBe(200);
    } finally {
      await brief.stop();
    }
  });

  it('takes the key itself as the bearer too, on REST and MCP', async () => {
    const s = await signedIn(deck.url, 'kit');
    const byKey = { authorization: `Bearer ${s.key}` };
    expect((await call(`${deck.url}/plans`, { headers: byKey })).body.principal.name).toBe('kit');
    expect((await call(`${deck.url}/me`, { headers: byKey })).body.principal.name).toBe('kit');
    expect(((await accountOverMcp(s.key)).structuredContent as { principal: { name: string } }).principal.name).toBe('kit');
  });

  it('answers 401 for a key refused, and a bearer that does not verify is 401 on REST and MCP', async () => {
    for (const key of [stranger(), 'not-even-a-key']) {
      const res = await login(key);
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe('key_refused');
    }
    const bad = { authorization: `Bearer ${stranger(1)}` };
    expect((await call(`${deck.url}/me`, { headers: bad })).status).toBe(401);
    expect((await call(`${deck.url}/me`)).status).toBe(401);
    const mcp = await rpc(`${deck.url}/mcp`, accountCall, bad);
    expect(mcp.status).toBe(401);
    expect((mcp.body as RpcError).error.code).toBe(-32001);
  });

  it('answers 422 naming key for a key over 512 characters, and takes one of 512', async () => {
    const long = await login(`deck_live_${'a'.repeat(503)}`);
    expect(long.status).toBe(422);
    expect((await long.json()).problems.map((p: { field: string }) => p.field)).toContain('key');
    expect((await login(`deck_live_${'a'.repeat(502)}`)).status).toBe(401);
  });

  it('answers 400 for a body that is not JSON, and 422 for a body without a key or with other fields', async () => {
    for (const raw of ['key=abc', '', '{"key"']) expect((await call(`${deck.url}/login`, { method: 'POST', raw })).status).toBe(400);
    expect((await call(`${deck.url}/login`, { body: {} })).status).toBe(422);
    expect((await call(`${deck.url}/login`, { body: { key: 5 } })).status).toBe(422);
    expect((await call(`${deck.url}/login`, { body: { key: stranger(), name: 'lena' } })).status).toBe(422);
  });
});

describe('the login throttle', () => {
  it('rests the door with 429 after 10 refused keys from one address, for that address only', async () => {
    const key = await joined('patient');
    const [noisy, quiet] = ['127.0.0.5', '127.0.0.6'].map(fromAddress);
    try {
      for (let i = 0; i < 10; i++) expect((await noisy!.call(`${deck.url}/login`, { key: stranger(i) })).status).toBe(401);
      const rested = await noisy!.call(`${deck.url}/login`, { key });
      expect(rested.status).toBe(429);
      expect(rested.body).toMatchObject({ ok: false, error: 'login_resting' });
      expect((rested.body as { retry_after_s: number }).retry_after_s).toBeGreaterThan(280);
      expect(rested.headers['retry-after']).toBe(String((rested.body as { retry_after_s: number }).retry_after_s));
      expect((await quiet!.call(`${deck.url}/login`, { key })).status).toBe(200);
    } finally {
      await Promise.all([noisy!.close(), quiet!.close()]);
    }
  });

  it('keeps resting for the rest of the window, then opens again (DECK_LOGIN_REFUSALS=3, DECK_LOGIN_WINDOW_S=3)', async () => {
    const small = await testDeck({ DECK_LOGIN_REFUSALS: '3', DECK_LOGIN_WINDOW_S: '3' });
    try {
      const key = await joined('waiter', small.url);
      const started = Date.now();
      for (let i = 0; i < 3; i++) expect((await login(stranger(i), small.url)).status).toBe(401);
      expect((await login(key, small.url)).status).toBe(429);
      await sleep(1_000);
      expect((await login(key, small.url)).status).toBe(429);
      await sleep(Math.max(0, started + 3_100 - Date.now()));
      expect((await login(key, small.url)).status).toBe(200);
    } finally {
      await small.stop();
    }
  });

  it('forgets the refused keys of an address when a key from it succeeds', async () => {
    const small = await testDeck({ DECK_LOGIN_REFUSALS: '3' });
    try {
      const key = await joined('forgiven', small.url);
      for (let i = 0; i < 2; i++) expect((await login(stranger(i), small.url)).status).toBe(401);
      expect((await login(key, small.url)).status).toBe(200);
      // Without the clearing this third refusal in the window would reach the limit and the next call would rest.
      for (let i = 0; i < 3; i++) expect((await login(stranger(i), small.url)).status).toBe(401);
      expect((await login(stranger(9), small.url)).status).toBe(429);
    } finally {
      await small.stop();
    }
  });
});

describe('refused bearers and cookies count with the login throttle', () => {
  const ACCEPT = { accept: 'application/json, text/event-stream' };
  const guess = (n: number) => ({ authorization: `Bearer ${stranger(n)}` });

  /** A deck resting an address after 3 refused credentials, and a client on each of `addresses`. */
  async function throttled(addresses: string[], run: (url: string, clients: Client[]) => Promise<void>) {
    const small = await testDeck({ DECK_LOGIN_REFUSALS: '3' });
    const clients = addresses.map(fromAddress);
    try {
      await run(small.url, clients);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      await small.stop();
    }
  }

  it('rests an address after refused bearers on REST: 429 with Retry-After for what does not verify, and the login door for every key', () =>
    throttled(['127.0.0.21', '127.0.0.22'], async (url, [guesser, other]) => {
      const s = await signedIn(url, 'guessed');
      for (let i = 0; i < 3; i++) expect((await guesser!.call(`${url}/me`, undefined, guess(i))).status).toBe(401);
      const rested = await guesser!.call(`${url}/me`, undefined, guess(3));
      expect(rested.status).toBe(429);
      const body = rested.body as { error: string; retry_after_s: number };
      expect(body.error).toBe('login_resting');
      expect(body.retry_after_s).toBeGreaterThan(250);
      expect(rested.headers['retry-after']).toBe(String(body.retry_after_s));
      // While it rests the login door refuses every key, a right one included ...
      expect((await guesser!.call(`${url}/login`, { key: s.key })).status).toBe(429);
      // ... and guesses stay refused ...
      expect((await guesser!.call(`${url}/me`, undefined, guess(4))).status).toBe(429);
      // ... and what needs no credential is still served.
      expect((await guesser!.call(`${url}/catalogue`)).status).toBe(200);
      // Another address is not touched.
      expect((await other!.call(`${url}/me`, undefined, s.bearer)).status).toBe(200);
    }));

  it('rests bearers while the login door rests: refused keys at login stop guessed bearers too', () =>
    throttled(['127.0.0.26'], async (url, [guesser]) => {
      for (let i = 0; i < 3; i++) expect((await guesser!.call(`${url}/login`, { key: stranger(i) })).status).toBe(401);
      for (let i = 0; i < 5; i++) expect((await guesser!.call(`${url}/me`, undefined, guess(i))).status).toBe(429);
    }));

  it('counts refused MCP bearers too, and answers a resting address HTTP 429 with Retry-After and JSON-RPC -32005 per request', () =>
    throttled(['127.0.0.23'], async (url, [guesser]) => {
      const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
      const key = await joined('mcp_guessed', url);
      for (let i = 0; i < 3; i++) {
        const refused = await guesser!.call(`${url}/mcp`, list(i), { ...ACCEPT, ...guess(i) });
        expect(refused.status).toBe(401);
        expect((refused.body as RpcError).error.code).toBe(-32001);
      }
      const rested = await guesser!.call(`${url}/mcp/studio`, list(7), { ...ACCEPT, ...guess(9) });
      expect(rested.status).toBe(429);
      expect(rested.headers['content-type']).toMatch(/^application\/json/);
      const answer = rested.body as { error: { data: { retry_after_s: number } } };
      expect(answer).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32005, message: expect.stringMatching(/refused keys/) } });
      expect(rested.headers['retry-after']).toBe(String(answer.error.data.retry_after_s));
      const batch = await guesser!.call(`${url}/mcp`, [list(1), { jsonrpc: '2.0', method: 'notifications/initialized' }, list(2)], { ...ACCEPT, ...guess(10) });
      expect(batch.status).toBe(429);
      expect((batch.body as RpcError[]).map((x) => [x.id, x.error.code])).toEqual([
        [1, -32005],
        [2, -32005],
      ]);
      // One throttle for both doors: the REST login rests as well.
      expect((await guesser!.call(`${url}/login`, { key })).status).toBe(429);
    }));

  it('counts a refused cookie, and clears it so a browser stops presenting a dead session', () =>
    throttled(['127.0.0.24'], async (url, [browser]) => {
      const s = await signedIn(url, 'stale');
      await call(`${url}/logout`, { method: 'POST', headers: s.bearer });
      const dead = await browser!.call(`${url}/me`, undefined, { cookie: `deck_session=${s.session}` });
      expect(dead.status).toBe(401);
      const cleared = ([] as string[]).concat(dead.headers['set-cookie'] ?? []).find((c) => c.startsWith('deck_session='));
      expect(cleared).toMatch(/^deck_session=;.*Expires=Thu, 01 Jan 1970/);
      for (let i = 0; i < 2; i++) expect((await browser!.call(`${url}/me`, undefined, { cookie: `deck_session=ds_${i}` })).status).toBe(401);
      expect((await browser!.call(`${url}/me`, undefined, { cookie: 'deck_session=ds_9' })).status).toBe(429);
    }));

  it("is not cleared by a bearer that verifies: presenting one's own session between guesses buys no more guesses", () =>
    throttled(['127.0.0.25'], async (url, [guesser]) => {
      const s = await signedIn(url, 'interleaver');
      for (let i = 0; i < 2; i++) {
        expect((await guesser!.call(`${url}/me`, undefined, guess(i))).status).toBe(401);
        expect((await guesser!.call(`${url}/me`, undefined, s.bearer)).status).toBe(200);
      }
      expect((await guesser!.call(`${url}/me`, undefined, guess(2))).status).toBe(401);
      expect((await guesser!.call(`${url}/me`, undefined, guess(3))).status).toBe(429);
    }));

  it('never refuses a credential that verifies: a resting address still serves a key and a session on REST, MCP and the OAuth consent', () =>
    throttled(['127.0.0.27'], async (url, [shared]) => {
      // One address serving many people (a hosted MCP client): one of them presents a stale token until it rests.
      const s = await signedIn(url, 'behind-the-host');
      for (let i = 0; i < 4; i++) await shared!.call(`${url}/me`, undefined, guess(i));
      expect((await shared!.call(`${url}/me`, undefined, guess(5))).status).toBe(429);

      // REST, with the session and with the key.
      for (const bearer of [s.bearer, { authorization: `Bearer ${s.key}` }, { cookie: `deck_session=${s.session}` }]) {
        const me = await shared!.call(`${url}/me`, undefined, bearer);
        expect(me.status, JSON.stringify(bearer)).toBe(200);
        expect((me.body as { principal: { name: string } }).principal.name).toBe('behind-the-host');
      }
      // MCP, a gated tool with the session and with the key.
      const account = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'account', arguments: {} } };
      for (const bearer of [s.bearer, { authorization: `Bearer ${s.key}` }]) {
        const answered = await shared!.call(`${url}/mcp`, account, { ...ACCEPT, ...bearer });
        expect(answered.status).toBe(200);
        expect((answered.body as { result: { structuredContent: { principal: { name: string } } } }).result.structuredContent.principal.name).toBe('behind-the-host');
      }
      // The OAuth consent, from the page's session cookie.
      const app = await call(`${url}/oauth/register`, { body: { client_name: 'hosted', redirect_uris: ['http://127.0.0.1:9/callback'], token_endpoint_auth_method: 'none' } });
      const q = new URLSearchParams({ response_type: 'code', client_id: app.body.client_id, redirect_uri: 'http://127.0.0.1:9/callback', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', state: 's', resource: `${url}/mcp` });
      const sent = await fetch(`${url}/oauth/authorize?${q}`, { redirect: 'manual' });
      const request = new URL(sent.headers.get('location')!).searchParams.get('authorization');
      const consented = await shared!.call(`${url}/oauth/consent`, { request, allow: true }, { cookie: `deck_session=${s.session}` });
      expect(consented.status).toBe(200);
      expect(new URL((consented.body as { redirect: string }).redirect).searchParams.get('code')).toBeTruthy();
      // A guess is still refused, and the count is not cleared by what verified.
      expect((await shared!.call(`${url}/me`, undefined, guess(6))).status).toBe(429);
      expect((await shared!.call(`${url}/login`, { key: s.key })).status).toBe(429);
    }));
});

describe('POST /logout', () => {
  it('answers 200, clears the cookie and ends that session; the key and other sessions stay valid', async () => {
    const s = await signedIn(deck.url, 'leaver');
    const other = sessionCookie((await login(s.key)).headers).value;
    const res = await fetch(`${deck.url}/logout`, { method: 'POST', headers: { cookie: `deck_session=${s.session}` } });
    expect(res.status).toBe(200);
    expect((await res.json()).ok).toBe(true);
    const cleared = sessionCookie(res.headers);
    expect(cleared.value).toBe('');
    expect(Date.parse(cleared.attrs.get('expires')!)).toBeLessThan(Date.now());

    expect((await call(`${deck.url}/me`, { headers: s.bearer })).status).toBe(401);
    expect((await call(`${deck.url}/me`, { headers: { authorization: `Bearer ${other}` } })).status).toBe(200);
    expect((await call(`${deck.url}/me`, { headers: { authorization: `Bearer ${s.key}` } })).status).toBe(200);
    expect((await login(s.key)).status).toBe(200);
  });

  it('answers 200 without any credential', async () => {
    const res = await fetch(`${deck.url}/logout`, { method: 'POST' });
    expect(res.status).toBe(200);
  });
});

describe('GET /auth/providers', () => {
  it('answers the key door open and the email and X doors closed', async () => {
    const { status, body } = await call(`${deck.url}/auth/providers`);
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, email: false, x: false, key: true });
  });
});

describe('POST /me/key', () => {
  it('answers 401 without a session', async () => {
    expect((await call(`${deck.url}/me/key`, { body: { confirm: 'rotate' } })).status).toBe(401);
    expect((await call(`${deck.url}/me/key`, { body: { confirm: 'rotate' }, headers: { authorization: `Bearer ${stranger()}` } })).status).toBe(401);
  });

  it('answers 422 naming confirm unless the body is exactly { confirm: "rotate" }', async () => {
    const s = await signedIn(deck.url, 'hesitant');
    for (const body of [{}, { confirm: 'yes' }, { confirm: 'ROTATE' }, { confirm: true }]) {
      const res = await call(`${deck.url}/me/key`, { body, headers: s.bearer });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.problems.map((p: { field: string }) => p.field), JSON.stringify(body)).toEqual(['confirm']);
    }
    expect((await call(`${deck.url}/me/key`, { body: { confirm: 'rotate', also: 1 }, headers: s.bearer })).status).toBe(422);
    // Nothing rotated: the key still works.
    expect((await call(`${deck.url}/me`, { headers: { authorization: `Bearer ${s.key}` } })).status).toBe(200);
  });

  it('shows a new key once; the old key and every other session made before stop at once; the new key signs in', async () => {
    const s = await signedIn(deck.url, 'rotor');
    const before = sessionCookie((await login(s.key)).headers).value;
    const bystander = await signedIn(deck.url, 'bystander');

    const res = await call(`${deck.url}/me/key`, { body: { confirm: 'rotate' }, headers: s.bearer });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, shown_once: true });
    const fresh = res.body.api_key as string;
    expect(fresh).toMatch(/^deck_live_/);
    expect(fresh).not.toBe(s.key);

    for (const stale of [s.key, before]) {
      expect((await call(`${deck.url}/me`, { headers: { authorization: `Bearer ${stale}` } })).status).toBe(401);
      expect((await rpc(`${deck.url}/mcp`, accountCall, { authorization: `Bearer ${stale}` })).status).toBe(401);
    }
    expect((await login(s.key)).status).toBe(401);
    // The session that asked stays signed in.
    expect((await call(`${deck.url}/me`, { headers: s.bearer })).body.principal.name).toBe('rotor');

    const again = await login(fresh);
    expect(again.status).toBe(200);
    expect((await again.json()).name).toBe('rotor');
    const next = sessionCookie(again.headers).value;
    expect((await call(`${deck.url}/me`, { headers: { authorization: `Bearer ${next}` } })).body.principal.name).toBe('rotor');
    expect((await call(`${deck.url}/me`, { headers: bystander.bearer })).status).toBe(200);
  });

  it('keeps the session that rotated, so a lost answer is mended by rotating again from it; a rotation from another session ends it', async () => {
    const s = await signedIn(deck.url, 'lost-answer');
    const second = sessionCookie((await login(s.key)).headers).value;
    // The answer with the first new key never arrives: the person has only the session that asked.
    expect((await call(`${deck.url}/me/key`, { body: { confirm: 'rotate' }, headers: s.bearer })).status).toBe(200);
    expect((await call(`${deck.url}/me`, { headers: { authorization: `Bearer ${second}` } })).status).toBe(401);
    const mended = await call(`${deck.url}/me/key`, { body: { confirm: 'rotate' }, headers: s.bearer });
    expect(mended.status).toBe(200);
    const fresh = mended.body.api_key as string;
    expect((await login(fresh)).status).toBe(200);
    expect((await call(`${deck.url}/me`, { headers: s.bearer })).status).toBe(200);

    // A rotation asked from another session keeps that one and ends this one; one asked with the key keeps none.
    const other = sessionCookie((await login(fresh)).headers).value;
    const third = await call(`${deck.url}/me/key`, { body: { confirm: 'rotate' }, headers: { authorization: `Bearer ${other}` } });
    expect((await call(`${deck.url}/me`, { headers: s.bearer })).status).toBe(401);
    expect((await call(`${deck.url}/me`, { headers: { authorization: `Bearer ${other}` } })).status).toBe(200);
    const byKey = await call(`${deck.url}/me/key`, { body: { confirm: 'rotate' }, headers: { authorization: `Bearer ${third.body.api_key}` } });
    expect(byKey.status).toBe(200);
    expect((await call(`${deck.url}/me`, { headers: { authorization: `Bearer ${other}` } })).status).toBe(401);
    // Signing the kept session out ends it like any other.
    const last = sessionCookie((await login(byKey.body.api_key)).headers).value;
    expect((await call(`${deck.url}/me/key`, { body: { confirm: 'rotate' }, headers: { authorization: `Bearer ${last}` } })).status).toBe(200);
    await call(`${deck.url}/logout`, { method: 'POST', headers: { authorization: `Bearer ${last}` } });
    expect((await call(`${deck.url}/me`, { headers: { authorization: `Bearer ${last}` } })).status).toBe(401);
  });
});
