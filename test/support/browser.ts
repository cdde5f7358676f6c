import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium: the tests drive the browser a person would use, never a downloaded one. */
const CHROMIUM = '/usr/bin/chromium';

let browser: Promise<Browser> | null = null;

/** The browser, launched once per test file. Without Chromium every test using it fails saying so: none is skipped. */
function chromiumOnce(): Promise<Browser> {
  browser ??= existsSync(CHROMIUM)
    ? chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      })
    : Promise.reject(new Error(`the browser tests need Chromium at ${CHROMIUM}: apt-get install chromium fonts-liberation`));
  return browser;
}

/** A fresh browser profile that may use the clipboard on `origin`, as a person allows it. */
export async function person(origin: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await (await chromiumOnce()).newContext({ viewport: { width: 900, height: 900 } });
  context.setDefaultTimeout(15_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  return { context, page: await context.newPage() };
}

/** Closes the browser, if it was launched. */
export async function closeBrowser(): Promise<void> {
  await (await browser?.catch(() => null))?.close();
  browser = null;
}
