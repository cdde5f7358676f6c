// Run from source (tsx, vitest), a worker thread has no TypeScript loader of its own: register tsx's, then load the
// thread's entry on the first job. Nothing is awaited at the top: the pool loads this file with require() first, and
// Node 20's require of a module that awaits at its top has ended the whole process (a fatal error in V8).
import { register } from 'tsx/esm/api';

register();
/** @type {Promise<typeof import('./thread.js')> | undefined} */
let entry;
/** @param {import('./thread.js').ThreadJob} job */
export const run = async (job) => (await (entry ??= import('./thread.js'))).run(job);
