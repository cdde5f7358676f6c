// Run from source (tsx, vitest), a worker thread has no TypeScript loader of its own: register tsx's, then load the
// work. The built deck loads dist/pool-worker.js instead.
import { register } from 'tsx/esm/api';

register();
const work = await import('./worker.js');

// Every kind of work worker.ts exports, by name (an ES module cannot re-export names it learns at run time);
// test/work-pool.test.ts holds the two lists equal.
export const { rehearsal, forging, reading, parsing, imaging, forecasting, drawing, drawingRehearsal } = work;
