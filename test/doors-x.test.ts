import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XDouble } from './fixtures/x.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';

// The X door end to end against a local X that speaks X's documented wire: the browser's redirects are followed by
// hand (the authorize redirect, X's consent, the callback), carrying the cookies a browser would.
let x: XDouble;
let deck: TestDeck;

beforeAll(async () => {
  x = await new XDouble().start();
  deck = await testDeck(x.env());
});
afterAll(async () => {
  await deck.stop();
  await x.close();
});

const cookieOf = (res: Response, name: string) => new RegExp(`${name}=([^;]*)`).exec(res.headers.get('set-cookie') ?? '')?.[1] ?? null;

/** One X sign-in as a browser makes it; answers where it ended on the join page and the session it was given. */
async function xSignIn(at: TestDeck, o: { keepState?: boolean } = {}) {
  const start = await fetch(`${at.url}/auth/x`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const state = cookieOf(start, 'deck_x_state');
  const consent = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const back = consent.headers.get('location')!;
  expect(back.startsWith(`${at.url}/auth/x/callback?`)).toBe(true);
  const done = await fetch(back, { redirect: 'manual', headers: o.keepState === false ? {} : { cookie: `deck_x_state=${state}` } });
  expect(done.status).toBe(302);
  return { to: new URL(done.headers.get('location')!), session: cookieOf(done, 'deck_session') || null, authorize: new URL(start.headers.get('location')!) };
}

describe('the X door', () => {
  it('is open on GET /auth/providers when configured', async () => {
    expect((await call(`${deck.url}/auth/providers`)).body).toEqual({ ok: true, email: false, x: true, key: true });
  });

  it('sends the person to X with PKCE (S256), and a first-time account comes back with a proof that joins, then signs in', async () => {
    const first = await xSignIn(deck);
    const q = first.authorize.searchParams;
    expect(first.authorize.origin + first.authorize.pathname).toBe(`${x.url}/i/oauth2/authorize`);
    expect(Object.fromEntries(q)).toMatchObject({ response_type: 'code', client_id: x.clientId, redirect_uri: `${deck.url}/auth/x/callback`, scope: 'tweet.read users.read', code_challenge_method: 'S256' });
    expect(first.to.pathname).toBe('/join');
    expect(first.to.searchParams.get('door')).toBe('x');
    const proof = first.to.searchParams.get('proof')!;
    expect(proof).toMatch(/^dp_/);
    expect(first.session).toBeNull();

    // The token request as X documents it for a confidential client: Basic auth, the form with the verifier.
    const token = x.requests.find((r) => r.path === '/2/oauth2/token')!;
    expect(token.authorization).toBe(`Basic ${Buffer.from(`${x.clientId}:${x.secret}`).toString('base64')}`);
    expect(token.form).toMatchObject({ grant_type: 'authorization_code', redirect_uri: `${deck.url}/auth/x/callback`, code_verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(token.form).not.toHaveProperty('client_id');

    const joined = await call(`${deck.url}/join`, { body: { name: 'xavier', proof } });
    expect(joined.status).toBe(201);

    const again = await xSignIn(deck);
    expect(again.to.searchParams.get('door')).toBe('x');
    expect(again.to.searchParams.get('proof')).toBeNull();
    expect(again.session).toMatch(/^ds_/);
    const me = await call(`${deck.url}/me`, { headers: { authorization: `Bearer ${again.session}` } });
    expect(me.body.principal).toMatchObject({ name: 'xavier', agent_id: joined.body.principal.agent_id });
    const doors = await call(`${deck.url}/me/doors`, { headers: { authorization: `Bearer ${again.session}` } });
    expect(doors.body.doors).toEqual([{ door: 'x', label: '@deck_tester', linked_at: expect.any(String) }]);
  });

  it('links an X account to the principal signed in by key; another principal cannot take it', async () => {
    x.user = { id: '1000001', username: 'yara_x', name: 'Yara' };
    const yara = await signedIn(deck.url, 'yara');
    const proved = await xSignIn(deck);
    const proof = proved.to.searchParams.get('proof')!;
    const linked = await call(`${deck.url}/me/doors`, { body: { proof }, headers: yara.bearer });
    expect(linked.body.doors).toEqual([{ door: 'x', label: '@yara_x', linked_at: expect.any(String) }]);
    expect((await call(`${deck.url}/me/doors`, { body: { proof }, headers: yara.bearer })).status).toBe(422);
    const signed = await xSignIn(deck);
    expect((await call(`${deck.url}/me`, { headers: { authorization: `Bearer ${signed.session}` } })).body.principal.name).toBe('yara');
  });

  it('refuses a callback the browser did not start, counting it with the login throttle, and a declined consent', async () => {
    const stray = await xSignIn(deck, { keepState: false });
    expect(stray.to.searchParams.get('door_error')).toBe('x_state_refused');
    expect(stray.session).toBeNull();
    x.decline = true;
    try {
      const declined = await xSignIn(deck);
      expect(declined.to.searchParams.get('door_error')).toBe('x_declined');
    } finally {
      x.decline = false;
    }
  });
});

describe('the X door for a public client, and misconfigured', () => {
  it('sends client_id in the form and no Authorization when the X app has no secret', async () => {
    const open = await new XDouble('deck-public-client', null).start();
    const publicDeck = await testDeck(open.env());
    try {
      const first = await xSignIn(publicDeck);
      expect(first.to.searchParams.get('proof')).toMatch(/^dp_/);
      const token = open.requests.find((r) => r.path === '/2/oauth2/token')!;
      expect(token.authorization).toBeNull();
      expect(token.form).toMatchObject({ client_id: 'deck-public-client' });
    } finally {
      await publicDeck.stop();
      await open.close();
    }
  });

  it('ends on the join page naming X\'s refusal when the client secret is wrong', async () => {
    const wrong = await testDeck({ ...x.env(), DECK_X_CLIENT_SECRET: 'not-the-secret' });
    try {
      expect((await xSignIn(wrong)).to.searchParams.get('door_error')).toBe('upstream_refused');
    } finally {
      await wrong.stop();
    }
  });

  it('answers 503 naming DECK_X_CLIENT_ID when the X door is not configured', async () => {
    const bare = await testDeck();
    try {
      const res = await fetch(`${bare.url}/auth/x`, { redirect: 'manual' });
      expect(res.status).toBe(503);
      expect((await res.json()).message).toContain('DECK_X_CLIENT_ID');
    } finally {
      await bare.stop();
    }
  });
});
