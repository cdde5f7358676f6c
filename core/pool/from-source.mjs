// Run from source (tsx, vitest), a worker thread has no TypeScript loader of its own: register tsx's, then load the
// work. The built deck loads dist/pool-worker.js instead.
import { register } from 'tsx/esm/api';

register();
const work = await import('./worker.js');

export const rehearsal = work.rehearsal;
