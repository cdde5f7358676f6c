import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { signInOf, SmtpDouble } from './fixtures/smtp.js';
import { XDouble } from './fixtures/x.js';
import { closeBrowser, person as browserPerson } from './support/browser.js';
import { testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';

// The onboarding page drives the email and X doors in a real browser (the system's Chromium), against a deck whose
// mail goes to a real SMTP server in this process and whose X is a local X speaking X's documented OAuth 2.0 wire:
// a person proves an address with the mailed code, joins with it, signs in again by code or by the mail's link, and
// links an X account that then signs in as them.

const SHOTS = '/tmp';

let smtp: SmtpDouble;
let x: XDouble;
let deck: TestDeck;
let joinUrl: string;
/** The key the person got when they joined with their address. */
let key: string;

beforeAll(async () => {
  smtp = await new SmtpDouble().start();
  x = await new XDouble().start();
  deck = await testDeck({ DECK_SMTP_URL: smtp.url(), DECK_SMTP_PASSWORD: smtp.password, DECK_EMAIL_FROM: 'The deck <deck@deck.test>', ...x.env() });
  joinUrl = (await call(`${deck.url}/join`)).body.join_url as string;
});
afterAll(async () => {
  await closeBrowser();
  await deck.stop();
  await x.close();
  await smtp.close();
});

const person = (ctx: TestContext) => browserPerson(ctx, new URL(joinUrl).origin);
/** The principal a browser's deck_session cookie signs in as. */
async function sessionOf(context: Awaited<ReturnType<typeof person>>['context']) {
  const cookie = (await context.cookies(deck.url)).find((c) => c.name === 'deck_session');
  expect(cookie?.httpOnly).toBe(true);
  return (await call(`${deck.url}/me`, { headers: { authorization: `Bearer ${cookie!.value}` } })).body.principal as { name: string };
}

describe('the onboarding page with the email and X doors', () => {
  it('sends a code, takes it, and joins with the proved address; the address then signs in as that principal', async (ctx) => {
    const { context, page } = await person(ctx);
    try {
      await page.goto(joinUrl);
      await page.getByRole('heading', { name: 'Or sign in without your key' }).waitFor();
      expect(await page.getByRole('link', { name: 'Sign in with X' }).isVisible()).toBe(true);

      const arriving = smtp.next();
      await page.getByLabel('Email').fill('Pat@Example.com');
      await page.getByRole('button', { name: 'Send me a code' }).click();
      await page.getByRole('status').filter({ hasText: 'A code and a link are on their way to p***@example.com.' }).waitFor();
      const { code } = signInOf(await arriving);
      await page.getByLabel('The six-digit code from the mail').fill(code);
      await page.getByRole('button', { name: 'Sign in with the code' }).click();
      await page.getByRole('heading', { name: 'p***@example.com is not linked to anyone yet' }).waitFor();
      await page.screenshot({ path: `${SHOTS}/join-page-doors-1-proved.png`, fullPage: true });

      await page.getByLabel('Name').fill('pat-mail');
      await page.getByRole('button', { name: 'Get my key' }).click();
      key = await page.getByRole('textbox', { name: /Your key/ }).inputValue();
      expect(key).toMatch(/^deck_live_/);
      expect(await page.locator('#door').isVisible()).toBe(false);
      const login = await call(`${deck.url}/login`, { body: { key } });
      const session = /deck_session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1]!;
      const doors = await call(`${deck.url}/me/doors`, { headers: { authorization: `Bearer ${session}` } });
      expect(doors.body.doors).toEqual([{ door: 'email', label: 'p***@example.com', linked_at: expect.any(String) }]);
    } finally {
      await context.close();
    }

    // Another browser: the same address, a new code, and it is that principal at once.
    const again = await person(ctx);
    try {
      await again.page.goto(joinUrl);
      const arriving = smtp.next();
      await again.page.getByLabel('Email').fill('pat@example.com');
      await again.page.getByRole('button', { name: 'Send me a code' }).click();
      const { code } = signInOf(await arriving);
      await again.page.getByLabel('The six-digit code from the mail').fill(code);
      await again.page.getByRole('button', { name: 'Sign in with the code' }).click();
      await again.page.getByRole('heading', { name: 'Welcome, pat-mail' }).waitFor();
      expect((await sessionOf(again.context)).name).toBe('pat-mail');
    } finally {
      await again.context.close();
    }
  });

  it('signs in from the link in the mail, and takes the link out of the address bar', async (ctx) => {
    const arriving = smtp.next();
    expect((await call(`${deck.url}/auth/email`, { body: { email: 'pat@example.com' } })).status).toBe(200);
    const { link } = signInOf(await arriving);
    expect(link.startsWith(joinUrl)).toBe(true);
    const { context, page } = await person(ctx);
    try {
      await page.goto(link);
      await page.getByRole('heading', { name: 'Welcome, pat-mail' }).waitFor();
      expect(await page.getByRole('heading', { name: /Signing you in/ }).isVisible()).toBe(false);
      expect(new URL(page.url()).search).toBe('');
      expect((await sessionOf(context)).name).toBe('pat-mail');
      // Good once: the same link again signs no one in.
      const { context: later, page: second } = await person(ctx);
      try {
        await second.goto(link);
        await second.getByRole('heading', { name: 'Sign-in did not finish' }).waitFor();
        await second.getByRole('alert').filter({ hasText: /wrong, used or expired/ }).waitFor();
        expect((await later.cookies(deck.url)).some((c) => c.name === 'deck_session')).toBe(false);
      } finally {
        await later.close();
      }
    } finally {
      await context.close();
    }
  });

  it('comes back from X with an account linked to no one, links it once signed in with the key, and X then signs in as them', async (ctx) => {
    const { context, page } = await person(ctx);
    try {
      await page.goto(joinUrl);
      await page.getByRole('link', { name: 'Sign in with X' }).click();
      await page.getByRole('heading', { name: 'Your X account is not linked to anyone yet' }).waitFor();
      // The proof X's round trip left in the address is read, then taken out of it.
      expect(new URL(page.url()).searchParams.get('proof')).toBeNull();
      expect(x.requests.map((r) => r.path)).toEqual(['/i/oauth2/authorize', '/2/oauth2/token', '/2/users/me']);

      await page.getByLabel('Already have a key? Paste it').fill(key);
      await page.getByRole('button', { name: 'Sign in with my key' }).click();
      await page.getByRole('heading', { name: 'Welcome, pat-mail' }).waitFor();
      await page.getByRole('button', { name: 'Link it to me' }).click();
      await page.getByRole('heading', { name: 'Linked: p***@example.com, @deck_tester now signs in as you' }).waitFor();
      // Signed in, the page offers no other way in.
      expect(await page.getByRole('heading', { name: 'Or sign in without your key' }).isVisible()).toBe(false);
      await page.screenshot({ path: `${SHOTS}/join-page-doors-2-linked.png`, fullPage: true });
    } finally {
      await context.close();
    }

    const again = await person(ctx);
    try {
      await again.page.goto(joinUrl);
      await again.page.getByRole('link', { name: 'Sign in with X' }).click();
      await again.page.getByText('Signed in here as').filter({ hasText: 'pat-mail' }).waitFor();
      expect((await sessionOf(again.context)).name).toBe('pat-mail');
    } finally {
      await again.context.close();
    }
  });

  it('says when X gave no consent, and when a code is wrong, changing nothing', async (ctx) => {
    const { context, page } = await person(ctx);
    x.decline = true;
    try {
      await page.goto(joinUrl);
      await page.getByRole('link', { name: 'Sign in with X' }).click();
      await page.getByRole('heading', { name: 'Sign-in did not finish' }).waitFor();
      await page.getByRole('alert').filter({ hasText: 'X did not give consent. Nothing was changed.' }).waitFor();

      const arriving = smtp.next();
      await page.getByLabel('Email').fill('wrong@example.com');
      await page.getByRole('button', { name: 'Send me a code' }).click();
      const { code } = signInOf(await arriving);
      await page.getByLabel('The six-digit code from the mail').fill(code === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Sign in with the code' }).click();
      await page.getByRole('alert').filter({ hasText: /wrong, used or expired/ }).waitFor();
      expect((await context.cookies(deck.url)).some((c) => c.name === 'deck_session')).toBe(false);
    } finally {
      x.decline = false;
      await context.close();
    }
  });
});
