import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { TestContext } from 'vitest';
import { findChromium, NO_CHROMIUM } from './chromium.js';
import { skipBecause } from './skip.js';

let browser: Promise<Browser> | null = null;

/** The system's browser (the one a person would use, never a downloaded one: findChromium), launched once per test file. */
function chromiumOnce(executablePath: string): Promise<Browser> {
  browser ??= Promise.resolve().then(() =>
    chromium.launch({
      executablePath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    }),
  );
  return browser;
}

/**
 * A fresh browser profile that may use the clipboard on `origin`, as a person allows it, and what its page reported
 * breaking a Content-Security-Policy (the browser says so on the console): a page of the deck's breaks none. On a
 * machine with no browser the test is skipped, saying how to get one.
 */
export async function person(ctx: TestContext, origin: string): Promise<{ context: BrowserContext; page: Page; violations: string[] }> {
  const executable = findChromium();
  if (!executable) skipBecause(ctx, NO_CHROMIUM);
  const context = await (await chromiumOnce(executable)).newContext({ viewport: { width: 900, height: 900 } });
  context.setDefaultTimeout(15_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await context.newPage();
  const violations: string[] = [];
  page.on('console', (m) => void (/Content Security Policy/i.test(m.text()) && violations.push(m.text())));
  return { context, page, violations };
}

/** Closes the browser, if it was launched. */
export async function closeBrowser(): Promise<void> {
  await (await browser?.catch(() => null))?.close();
  browser = null;
}
