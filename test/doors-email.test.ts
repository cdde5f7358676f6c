import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config/env.js';
import { redactor } from '../config/logger.js';
import { signInOf, SmtpDouble } from './fixtures/smtp.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';

// The email door end to end: the deck sends over SMTP (nodemailer) to a real SMTP server in this process, the test
// reads the mail it received, and signs in with its code or its link.
const FROM = 'The deck <deck@deck.test>';
let smtp: SmtpDouble;
let deck: TestDeck;

beforeAll(async () => {
  smtp = await new SmtpDouble().start();
  deck = await testDeck({ DECK_SMTP_URL: smtp.url(), DECK_SMTP_PASSWORD: smtp.password, DECK_EMAIL_FROM: FROM });
});
afterAll(async () => {
  await deck.stop();
  await smtp.close();
});

const send = (email: string) => call(`${deck.url}/auth/email`, { body: { email } });
const verify = (body: Record<string, string>, headers: Record<string, string> = {}) => call(`${deck.url}/auth/email/verify`, { body, headers });
/** Sends a sign-in mail and reads it off the SMTP server. */
async function mailTo(email: string) {
  const arriving = smtp.next();
  const sent = await send(email);
  expect(sent.status).toBe(200);
  return { sent, mail: await arriving };
}
const sessionOf = (res: { headers: Headers }) => /deck_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? null;

describe('the email door', () => {
  it('is open on GET /auth/providers when configured, beside the key', async () => {
    expect((await call(`${deck.url}/auth/providers`)).body).toEqual({ ok: true, email: true, x: false, key: true });
  });

  it('signs a first-time address up: the mail, a proof, a join that mints a name with the address linked, then a sign-in as that principal', async () => {
    const { sent, mail } = await mailTo('Ann@Example.com');
    expect(sent.body).toMatchObject({ ok: true, sent: true, to: 'a***@example.com' });
    expect(mail).toMatchObject({ from: 'deck@deck.test', to: ['Ann@example.com'], user: 'deck', subject: 'Your sign-in code for the deck' });
    const { code, link } = signInOf(mail);
    expect(link.startsWith(`${deck.url}/join?email_token=dl_`)).toBe(true);

    const proved = await verify({ email: 'ann@example.com', code });
    expect(proved.status).toBe(200);
    expect(proved.body).toMatchObject({ ok: true, signed_in: false, door: 'email', label: 'a***@example.com', proof: expect.stringMatching(/^dp_/) });
    expect(sessionOf(proved)).toBeNull();
    // Spent: the same code again is refused.
    expect((await verify({ email: 'ann@example.com', code })).status).toBe(401);

    const joined = await call(`${deck.url}/join`, { body: { name: 'ann', proof: proved.body.proof } });
    expect(joined.status).toBe(201);
    expect(joined.body.principal.name).toBe('ann');
    // The proof joined once.
    expect((await call(`${deck.url}/join`, { body: { name: 'ann2', proof: proved.body.proof } })).body.problems).toEqual([{ field: 'proof', message: expect.stringContaining('not a live proof') }]);

    // Now the address signs in as ann, by the link's token this time.
    const again = await mailTo('ann@example.com');
    const signed = await verify({ token: signInOf(again.mail).token });
    expect(signed.status).toBe(200);
    expect(signed.body).toMatchObject({ ok: true, signed_in: true, door: 'email', name: 'ann', agent_id: joined.body.principal.agent_id });
    expect(signed.body).not.toHaveProperty('session');
    const session = sessionOf(signed)!;
    const me = await call(`${deck.url}/me`, { headers: { authorization: `Bearer ${session}` } });
    expect(me.body.principal).toMatchObject({ name: 'ann' });
    expect((await call(`${deck.url}/me/doors`, { headers: { authorization: `Bearer ${session}` } })).body.doors).toEqual([{ door: 'email', label: 'a***@example.com', linked_at: expect.any(String) }]);
  });

  it('links an address to the principal signed in by key, and one who signed in by email rotates a new key', async () => {
    const bob = await signedIn(deck.url, 'bob');
    const { mail } = await mailTo('bob@example.com');
    const proved = await verify({ email: 'bob@example.com', code: signInOf(mail).code });
    const linked = await call(`${deck.url}/me/doors`, { body: { proof: proved.body.proof }, headers: bob.bearer });
    expect(linked.status).toBe(200);
    expect(linked.body.doors).toEqual([{ door: 'email', label: 'b***@example.com', linked_at: expect.any(String) }]);

    // Bob lost his key: he signs in by email, and rotates.
    const byMail = await verify({ token: signInOf((await mailTo('bob@example.com')).mail).token });
    expect(byMail.body).toMatchObject({ signed_in: true, name: 'bob' });
    const rotated = await call(`${deck.url}/me/key`, { body: { confirm: 'rotate' }, headers: { authorization: `Bearer ${sessionOf(byMail)}` } });
    expect(rotated.status).toBe(200);
    const login = await call(`${deck.url}/login`, { body: { key: rotated.body.api_key } });
    expect(login.body).toMatchObject({ ok: true, name: 'bob' });
    expect((await call(`${deck.url}/login`, { body: { key: bob.key } })).status).toBe(401);

    // Unlinked, the address signs in as nobody: it gives a proof again.
    const unlinked = await call(`${deck.url}/me/doors?door=email`, { method: 'DELETE', headers: { authorization: `Bearer ${sessionOf(login)}` } });
    expect(unlinked.body.doors).toEqual([]);
    const after = await verify({ token: signInOf((await mailTo('bob@example.com')).mail).token });
    expect(after.body).toMatchObject({ signed_in: false, proof: expect.any(String) });
  });

  it('answers the same whether or not the address is linked, so it tells no one who has an account', async () => {
    const known = await mailTo('ann@example.com');
    const unknown = await mailTo('nobody@example.com');
    expect(Object.keys(known.sent.body).sort()).toEqual(Object.keys(unknown.sent.body).sort());
    expect(known.mail.text.replace(/\d{6}|dl_\S+/g, '')).toEqual(unknown.mail.text.replace(/\d{6}|dl_\S+/g, ''));
  });

  it('keeps no address, code or link in the store: only keyed digests and a masked label', async () => {
    const { mail } = await mailTo('carol@example.com');
    const { code, token } = signInOf(mail);
    const stored = await readFile(join(deck.dataDir, 'doors.json'), 'utf8');
    expect(stored).not.toContain('carol@example.com');
    expect(stored).not.toContain(token);
    expect(stored).not.toMatch(new RegExp(`"${code}"`));
    expect(stored).toContain('c***@example.com');
  });

  it('refuses a shapeless request naming the field', async () => {
    expect((await send('not an address')).body.problems[0].field).toBe('email');
    expect((await verify({ email: 'ann@example.com' })).body.problems[0].field).toBe('token');
    expect((await verify({ email: 'ann@example.com', code: '12' })).body.problems[0].field).toBe('code');
  });

  it('answers 502 when the mail server refuses the mail, and the sign-in is taken back', async () => {
    smtp.refuse = true;
    try {
      const res = await send('dave@example.com');
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ ok: false, error: 'upstream_refused', upstream: 'the mail server' });
    } finally {
      smtp.refuse = false;
    }
    const stored = JSON.parse(await readFile(join(deck.dataDir, 'doors.json'), 'utf8'));
    expect(Object.values(stored.asks).map((a) => (a as { label: string }).label)).not.toContain('d***@example.com');
  });
});

describe('the email door under the throttles', () => {
  let tight: TestDeck;
  beforeAll(async () => {
    tight = await testDeck({ DECK_SMTP_URL: smtp.url(true), DECK_EMAIL_FROM: 'deck@deck.test', DECK_LOGIN_REFUSALS: '3' });
  });
  afterAll(() => tight.stop());

  it('sends at most 5 mails an hour to one address (429 with retry_after_s)', async () => {
    for (let i = 0; i < 5; i++) {
      const arriving = smtp.next();
      expect((await call(`${tight.url}/auth/email`, { body: { email: 'eve@example.com' } })).status).toBe(200);
      await arriving;
    }
    const sixth = await call(`${tight.url}/auth/email`, { body: { email: 'eve@example.com' } });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toMatchObject({ error: 'email_limit', retry_after_s: expect.any(Number) });
    expect(sixth.headers.get('retry-after')).toBe(String(sixth.body.retry_after_s));
  });

  it('counts wrong codes with the login throttle: resting, the right code answers 429 too', async () => {
    const arriving = smtp.next();
    await call(`${tight.url}/auth/email`, { body: { email: 'frank@example.com' } });
    const { code } = signInOf(await arriving);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 3; i++) expect((await call(`${tight.url}/auth/email/verify`, { body: { email: 'frank@example.com', code: wrong } })).status).toBe(401);
    const right = await call(`${tight.url}/auth/email/verify`, { body: { email: 'frank@example.com', code } });
    expect(right.status).toBe(429);
    expect(right.body.error).toBe('login_resting');
    // The key door rests the same address.
    expect((await call(`${tight.url}/login`, { body: { key: 'deck_live_nothing' } })).status).toBe(429);
  });
});

describe('a deck without the email door', () => {
  it('sends nothing and answers 503 naming what configures it; providers says false', async () => {
    const bare = await testDeck();
    try {
      const before = smtp.inbox.length;
      const res = await call(`${bare.url}/auth/email`, { body: { email: 'ann@example.com' } });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: 'upstream_not_configured' });
      expect(res.body.message).toContain('DECK_SMTP_URL');
      expect((await call(`${bare.url}/auth/email/verify`, { body: { email: 'ann@example.com', code: '123456' } })).status).toBe(503);
      expect((await call(`${bare.url}/auth/providers`)).body).toEqual({ ok: true, email: false, x: false, key: true });
      expect(smtp.inbox.length).toBe(before);
    } finally {
      await bare.stop();
    }
  });

  it('refuses to start half configured, naming what is missing', () => {
    expect(() => readConfig({ DECK_SMTP_URL: 'smtp://deck@127.0.0.1:2525' })).toThrow(/DECK_EMAIL_FROM/);
    expect(() => readConfig({ DECK_EMAIL_FROM: 'deck@deck.test' })).toThrow(/DECK_SMTP_URL/);
    expect(() => readConfig({ DECK_SMTP_URL: 'http://mail.example' })).toThrow(/DECK_SMTP_URL/);
  });
});

describe('the doors\' secrets in the log', () => {
  it('are redacted wherever they sit: the SMTP password (its own variable or the URL\'s), the X client secret, link tokens and proofs', () => {
    const token = `dl_${'a'.repeat(43)}`;
    const proof = `dp_${'b'.repeat(43)}`;
    for (const env of [
      { DECK_SMTP_URL: 'smtp://deck@127.0.0.1:2525', DECK_SMTP_PASSWORD: 'smtp-secret-for-tests' },
      { DECK_SMTP_URL: 'smtp://deck:smtp-secret-for-tests@127.0.0.1:2525' },
    ]) {
      const redact = redactor(readConfig({ ...env, DECK_EMAIL_FROM: 'deck@deck.test', DECK_X_CLIENT_ID: 'id', DECK_X_CLIENT_SECRET: 'x-client-secret-for-tests' }));
      const line = redact(JSON.stringify({ a: 'smtp-secret-for-tests', b: 'x-client-secret-for-tests', c: `/join?email_token=${token}`, d: proof }));
      for (const secret of ['smtp-secret-for-tests', 'x-client-secret-for-tests', token, proof]) expect(line).not.toContain(secret);
    }
  });
});
