import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { closeBrowser, person as browserPerson } from './support/browser.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';

// The studio page in a real browser, over a deck seeded with the shipped sample tape (ES 1m of October 2013).
/** Where the browser tests leave their screenshots, when asked (DECK_SHOTS=<folder>): none otherwise. */
const SHOTS = process.env.DECK_SHOTS;
const RULE = 'ES on the 5 minute chart, long and short, during the cash session: go long when the 9 EMA crosses above the 21 EMA, go short when the 9 EMA crosses below the 21 EMA.';

let deck: TestDeck;

beforeAll(async () => {
  deck = await testDeck({ DECK_SAMPLE_TAPE: 'on' });
});
afterAll(async () => {
  await closeBrowser();
  await deck.stop();
});

/** A person signed in: the session cookie POST /login sets, in a fresh browser profile. */
async function signedInPerson(ctx: TestContext, name: string, width = 900) {
  const { context, page, violations } = await browserPerson(ctx, new URL(deck.url).origin);
  const { session } = await signedIn(deck.url, name);
  await context.addCookies([{ name: 'deck_session', value: session, url: deck.url, httpOnly: true }]);
  await page.setViewportSize({ width, height: 900 });
  return { context, page, violations };
}

describe('the studio page at /studio', () => {
  it('reads the rule as it is typed, hints the missing stop, forges, rehearses on the sample tape and shows the picture and verdict', async (ctx) => {
    const { context, page, violations } = await signedInPerson(ctx, 'studio-pat');
    try {
      await page.goto(`${deck.url}/studio`);
      await page.getByText(/Signed in as studio-pat/).waitFor();
      const rule = page.getByLabel('Your rule', { exact: true });
      await rule.pressSequentially(RULE, { delay: 0 });
      // Read as typed: the stop is missing, with the hint of what to write, and the forge waits for it.
      const stop = page.locator('#parts li[data-part="stop"]');
      await stop.getByText('missing').waitFor();
      await expect.poll(() => stop.textContent()).toMatch(/Write: .*stop 10 points/);
      expect(await page.getByRole('button', { name: 'Forge the rule' }).isDisabled()).toBe(true);
      expect(await page.locator('#words mark.p-market').first().textContent()).toBe('ES');
      // Where a window can fall: what the tape holds of the market read, from the catalogue (the shipped sample).
      expect(await page.locator('#held').textContent()).toMatch(/^The tape holds ES 1m: 2013-10-0\d .* \(sample\)/);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/studio-1-missing-stop.png`, fullPage: true });

      await rule.press('End');
      await rule.pressSequentially(' Stop 2 ATR(14). Target 2R.');
      await page.locator('#parts li[data-part="stop"]').getByText('read').waitFor();
      await page.getByText('All seven parts read').waitFor();
      expect(await page.locator('#words mark.p-stop').first().textContent()).toBe('Stop 2 ATR(14)');

      await page.getByRole('button', { name: 'Forge the rule' }).click();
      await page.getByText(/^Forged: seed ff51970d993e75af/).waitFor();
      expect(await page.locator('#review li').first().textContent()).toBe('look-ahead: passed');
      await page.getByText(/^Clean: every number/).waitFor();

      // The window ends at the newest bar the sample holds; a week back covers the sample's session days.
      await page.getByRole('button', { name: 'Rehearse' }).click();
      await page.getByRole('heading', { name: /^Verdict: / }).waitFor({ timeout: 60_000 });
      const verdict = await page.locator('.rv-verdict').textContent();
      expect(verdict).toMatch(/neighbours keep a positive total R/);
      expect(verdict).toMatch(/never a forecast/);
      // The picture: candles, each trade as a focusable mark that reads itself, the equity and the null with the rule's mark.
      expect(await page.locator('.rv-price .rv-up, .rv-price .rv-down').count()).toBeGreaterThan(100);
      const trades = page.locator('.rv-price .rv-trade');
      expect(await trades.count()).toBeGreaterThan(0);
      await trades.first().locator('.rv-entry').hover();
      await expect.poll(() => page.locator('.rv-detail').textContent()).toMatch(/^Trade 1: (long|short) at .* \((target|stop|session_end|[a-z_]+)\): [+-]\d/);
      expect(await page.locator('.rv-null .rv-bin').count()).toBeGreaterThan(5); // the null's histogram, the envelope's bins
      expect(await page.locator('.rv-null .rv-mark').count()).toBe(1);
      expect(await page.locator('.rv-equity polyline').count()).toBe(1);
      await page.getByRole('link', { name: 'The sealed plate (PNG)' }).waitFor();

      // Zoom and pan by keyboard on the focused chart: fewer candles in view, then a different first one.
      const chart = page.locator('.rv-price svg');
      const before = await page.locator('.rv-price .rv-up, .rv-price .rv-down').count();
      await chart.focus();
      await page.keyboard.press('+');
      const zoomed = await page.locator('.rv-price .rv-up, .rv-price .rv-down').count();
      expect(zoomed).toBeLessThan(before);
      const firstLabel = await page.locator('.rv-price .rv-axis').nth(4).textContent();
      await page.keyboard.press('ArrowRight');
      expect(await page.locator('.rv-price .rv-axis').nth(4).textContent()).not.toBe(firstLabel);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/studio-2-rehearsal.png`, fullPage: true });

      // No grader lane on this deck: the page says so, as the route does (503).
      await page.getByRole('button', { name: 'Grade the forge' }).click();
      await expect.poll(() => page.locator('#grade-error').textContent()).toMatch(/No grader is configured.*DECK_GRADER_URL.*\(503\)/);

      // The person's own forge and rehearsal, listed from the history.
      await expect.poll(() => page.locator('#mine tr').count()).toBe(2);
      expect(await page.locator('#mine').textContent()).toMatch(/rehearsal.*forge/s);
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('is used by keyboard alone: every control is labelled and reached by Tab in reading order', async (ctx) => {
    const { context, page } = await signedInPerson(ctx, 'studio-keys');
    try {
      await page.goto(`${deck.url}/studio`);
      await page.getByText(/Signed in as studio-keys/).waitFor();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('rule');
      await page.keyboard.type('ES on the 5 minute chart: go long when the 9 EMA crosses above the 21 EMA. Stop 2 ATR(14). Target 2R.');
      await page.getByText('All seven parts read').waitFor();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Forge the rule');
      await page.keyboard.press('Enter');
      await page.getByText(/^Forged: seed/).waitFor();
      const labelled = await page.evaluate(() =>
        Array.from(document.querySelectorAll('input, textarea')).every((e) => (e as HTMLInputElement).labels?.length),
      );
      expect(labelled).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('reads on a phone: at 390 px nothing is wider than the screen', async (ctx) => {
    const { context, page } = await signedInPerson(ctx, 'studio-phone', 390);
    try {
      await page.goto(`${deck.url}/studio`);
      await page.getByLabel('Your rule', { exact: true }).fill('ES on the 5 minute chart: go long when the 9 EMA crosses above the 21 EMA. Stop 2 ATR(14). Target 2R.');
      await page.getByText('All seven parts read').waitFor();
      await page.getByRole('button', { name: 'Forge the rule' }).click();
      await page.getByText(/^Forged: seed/).waitFor();
      await page.getByRole('button', { name: 'Rehearse' }).click();
      await page.getByRole('heading', { name: /^Verdict: / }).waitFor({ timeout: 60_000 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/studio-3-phone.png`, fullPage: true });
    } finally {
      await context.close();
    }
  });

  it('sends a visitor who is not signed in to the join page, which links back to the studio', async (ctx) => {
    const { context, page } = await browserPerson(ctx, new URL(deck.url).origin);
    try {
      await page.goto(`${deck.url}/studio`);
      await page.waitForURL(`${deck.url}/join`);
      expect(await page.locator('a[href="studio"]').count()).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });
});
