import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { findChromium } from './chromium.js';

let browser: Promise<Browser> | null = null;

/**
 * The system's browser (the one a person would use, never a downloaded one: findChromium), launched once per test
 * file. Without one every test using it fails saying how to get one: none is skipped.
 */
function chromiumOnce(): Promise<Browser> {
  browser ??= Promise.resolve().then(() =>
    chromium.launch({
      executablePath: findChromium(),
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    }),
  );
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
