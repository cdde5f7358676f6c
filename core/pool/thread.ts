import { isMainThread } from 'node:worker_threads';
import * as work from './worker.js';
import { yieldToTheLoop } from './yielding.js';

// A pool's thread yields its core to the event loop from the start (a test that imports this entry runs as it is).
if (!isMainThread) yieldToTheLoop();

/** A job as a thread takes it: which kind of work, and the job. */
export type ThreadJob = work.Job<unknown> & { kind: keyof typeof work };

/** What a thread answers: the job's answer, and the thread's own time on it (ms), against which the hand-off is told. */
export interface OnThread {
  answer: unknown;
  ms: number;
}

/** A pool thread's one entry: runs the job's kind of work and times it where it runs. */
export async function run(job: ThreadJob): Promise<OnThread> {
  const started = performance.now();
  const answer: unknown = await (work[job.kind] as (job: work.Job<unknown>) => unknown)(job);
  return { answer, ms: performance.now() - started };
}
