import type { MessagePort } from 'node:worker_threads';
import type { Rehearsal, RehearsalPhase } from '../../engine/stepper/index.js';
import { runRehearsalJob, type RehearsalJob } from '../../engine/stepper/job.js';

// The work a pool's thread does: each export is one kind of job, pure engine work on data that crossed by structured
// clone (bars as typed columns, never JSON text). A job asked to report how it goes gets a port to post its steps on
// (on the event loop, a function to call), and answers the same either way.

/** One job as the pool hands it over: its input, and where its steps are told when they are asked for. */
export interface Job<I> {
  input: I;
  port?: MessagePort;
}

const toldOn = (port: MessagePort | undefined) => (port ? (step: RehearsalPhase) => port.postMessage(step) : undefined);

export const rehearsal = (job: Job<RehearsalJob>, tell = toldOn(job.port)): Rehearsal => runRehearsalJob(job.input, tell);
