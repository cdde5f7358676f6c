// Run from source (tsx, vitest), a worker thread has no TypeScript loader of its own: register tsx's, then load the
// thread's entry. The built deck loads dist/pool-worker.js instead.
import { register } from 'tsx/esm/api';

register();
export const { run } = await import('./thread.js');
