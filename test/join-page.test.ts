import { getAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { closeBrowser, person as browserPerson } from './support/browser.js';
import { testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';

const SHOTS = '/tmp';

let deck: TestDeck;
let joinUrl: string;

beforeAll(async () => {
  deck = await testDeck();
  joinUrl = (await call(`${deck.url}/join`)).body.join_url as string;
});
afterAll(async () => {
  await closeBrowser();
  await deck.stop();
});

const person = (ctx: TestContext) => browserPerson(ctx, new URL(joinUrl).origin);

describe('the onboarding page at {join_url}', () => {
  it('joins, shows the key once with its warning, copies it, signs in and welcomes; a reload never shows the key again', async (ctx) => {
    const { context, page, violations } = await person(ctx);
    try {
      await page.goto(joinUrl);
      // The rule the page states is the one GET /join serves.
      await page.getByText(/3 to 32 characters.*lower-cased on input/).waitFor();
      await page.screenshot({ path: `${SHOTS}/join-page-1-form.png`, fullPage: true });

      const wallet = '0x52908400098527886e0f7030069857d2e4169ee7';
      await page.getByLabel('Name').fill('Pat-01');
      await page.getByLabel(/Wallet/).fill(wallet);
      await page.getByRole('button', { name: 'Get my key' }).click();

      const keyBox = page.getByRole('textbox', { name: /Your key/ });
      await keyBox.waitFor();
      const key = await keyBox.inputValue();
      expect(key).toMatch(/^deck_live_[A-Za-z0-9_-]{40,}$/);
      expect(await page.getByText(/shown once/i).isVisible()).toBe(true);
      expect(await page.getByText(/pat-01/).first().isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Get my key' }).isVisible()).toBe(false);

      await page.getByRole('button', { name: /Copy/ }).click();
      await page.getByRole('status').filter({ hasText: /Copied/ }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
      await page.screenshot({ path: `${SHOTS}/join-page-2-key.png`, fullPage: true });

      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: /Welcome/ }).waitFor();
      expect(await page.getByText(/pat-01/).first().isVisible()).toBe(true);
      expect(await page.content()).not.toContain(key);
      await page.screenshot({ path: `${SHOTS}/join-page-3-welcome.png`, fullPage: true });

      // The session the page made is the httpOnly cookie, and it is this principal's.
      const cookie = (await context.cookies(deck.url)).find((c) => c.name === 'deck_session');
      expect(cookie?.httpOnly).toBe(true);
      const me = await call(`${deck.url}/me`, { headers: { authorization: `Bearer ${cookie!.value}` } });
      expect(me.body.principal).toMatchObject({ name: 'pat-01', wallet: getAddress(wallet) });

      await page.reload();
      await page.getByLabel('Name').waitFor();
      // The page knows the session it holds, and says so, but the key is gone for good.
      await page.getByText(/Signed in here as/).filter({ hasText: 'pat-01' }).waitFor();
      expect(await page.content()).not.toContain(key);
      expect(await page.getByRole('textbox', { name: /Your key/ }).isVisible()).toBe(false);
      // All of it ran under the page's Content-Security-Policy, breaking none of it.
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows a taken name, and a wallet that is not an address, as errors on the page', async (ctx) => {
    expect((await call(`${deck.url}/join`, { body: { name: 'taken' } })).status).toBe(201);
    const { context, page } = await person(ctx);
    try {
      await page.goto(joinUrl);
      await page.getByLabel('Name').fill('taken');
      await page.getByRole('button', { name: 'Get my key' }).click();
      const alert = page.getByRole('alert');
      await alert.filter({ hasText: /is taken/ }).waitFor();
      expect(await page.getByRole('textbox', { name: /Your key/ }).isVisible()).toBe(false);
      await page.screenshot({ path: `${SHOTS}/join-page-4-taken.png`, fullPage: true });

      await page.getByLabel('Name').fill('fresh-name');
      await page.getByLabel(/Wallet/).fill('0x1234');
      await page.getByRole('button', { name: 'Get my key' }).click();
      await alert.filter({ hasText: /wallet/i }).waitFor();
      await page.screenshot({ path: `${SHOTS}/join-page-5-wallet.png`, fullPage: true });
      expect(await page.getByRole('textbox', { name: /Your key/ }).isVisible()).toBe(false);
      // Refused, so nothing was minted: the name is still free.
      expect((await call(`${deck.url}/join`, { body: { name: 'fresh-name' } })).status).toBe(201);
    } finally {
      await context.close();
    }
  });

  it('is sent with a policy that runs only its own script and style, talks only to the deck and is framed by no page', async (ctx) => {
    const res = await fetch(joinUrl, { headers: { accept: 'text/html' } });
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp.split('; ')).toEqual([
      "default-src 'none'",
      expect.stringMatching(/^script-src 'sha256-[A-Za-z0-9+/]{43}='$/),
      expect.stringMatching(/^style-src 'sha256-[A-Za-z0-9+/]{43}='$/),
      "connect-src 'self'",
      "img-src 'self'",
      "form-action 'self'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ]);
    expect(Object.fromEntries(['x-frame-options', 'x-content-type-options', 'referrer-policy', 'cache-control'].map((h) => [h, res.headers.get(h)]))).toEqual({
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
    // Another site's page that frames it (a consent page under a decoy, to be clicked blind) gets nothing.
    const consent = `${joinUrl}?authorization=any`;
    for (const url of [joinUrl, consent]) expect((await fetch(url, { headers: { accept: 'text/html' } })).headers.get('content-security-policy')).toBe(csp);
    const { context, page, violations } = await person(ctx);
    try {
      await page.setContent(`<iframe id="decoy" src="${consent}" width="600" height="400"></iframe>`);
      await page.waitForTimeout(1_000);
      const framed = page.frames().find((f) => f !== page.mainFrame())!;
      expect(await framed.locator('#join-form').count()).toBe(0);
      expect(violations.join('\n')).toMatch(/frame-ancestors 'none'/);
    } finally {
      await context.close();
    }
  });
});
