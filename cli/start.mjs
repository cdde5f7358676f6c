// @ts-check
import { pathToFileURL } from 'node:url';
import { bundle, ENTRY, staleness } from './build.mjs';

// `npm start`: runs the build in dist/, building it first when there is none or a source changed since (about a
// second, said in the log). A built tree starts at once: one node process, no compiler, no TypeScript loader.

const LEVELS = { silent: 0, error: 1, info: 2, debug: 3 };
const level = LEVELS[/** @type {keyof typeof LEVELS} */ (process.env.DECK_LOG ?? 'info')] ?? LEVELS.info;
/** One line as the deck logs them (JSON on stderr). */
const log = (/** @type {string} */ event, /** @type {Record<string, unknown>} */ fields) =>
  void (level >= LEVELS.info && process.stderr.write(`${JSON.stringify({ t: new Date().toISOString(), lvl: 'info', event, ...fields })}\n`));

const why = await staleness();
if (why) {
  log('building', { why, into: 'dist/', how: 'esbuild bundle, types unchecked (npm run typecheck checks them)' });
  log('built', { ms: Math.round(await bundle()) });
}
// Stack traces name the TypeScript sources.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(ENTRY).href);
