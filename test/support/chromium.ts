import { accessSync, constants } from 'node:fs';

/** Where Debian, Ubuntu and Chrome's own packages put the browser, in the order they are tried. */
const PLACES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

const HOW =
  'install one (Debian or Ubuntu: sudo apt-get install chromium fonts-liberation) or set CHROMIUM_PATH to a Chromium or Chrome executable';

const runnable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** Why the browser tests are skipped on a machine without a browser, and how to get one. */
export const NO_CHROMIUM = `the browser tests (test/join-page.test.ts, test/studio-page.test.ts, test/mcp-app.test.ts, test/oauth.test.ts) need Chromium and found none at ${PLACES.join(', ')}: ${HOW}`;

/**
 * The browser the browser tests drive: CHROMIUM_PATH when set, else the first system Chromium or Chrome found at
 * `places`; null when there is none (those tests are then skipped, saying NO_CHROMIUM). The tests never install one,
 * nor download one. A CHROMIUM_PATH that names no executable is an error: the one asked for is not there.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env, places: readonly string[] = PLACES): string | null {
  const named = env.CHROMIUM_PATH;
  if (named) {
    if (runnable(named)) return named;
    throw new Error(`CHROMIUM_PATH is ${named}, which is not an executable file: ${HOW}`);
  }
  return places.find(runnable) ?? null;
}
