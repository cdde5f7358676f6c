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

/**
 * The browser the onboarding-page test drives: CHROMIUM_PATH when set, else the first system Chromium or Chrome
 * found. The tests never install one, nor download one: without a browser this throws saying how to get one.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string {
  const named = env.CHROMIUM_PATH;
  if (named) {
    if (runnable(named)) return named;
    throw new Error(`CHROMIUM_PATH is ${named}, which is not an executable file: ${HOW}`);
  }
  const found = PLACES.find(runnable);
  if (found) return found;
  throw new Error(`the onboarding-page test needs Chromium and found none at ${PLACES.join(', ')}: ${HOW}`);
}
