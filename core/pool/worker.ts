import type { Rehearsal } from '../../engine/stepper/index.js';
import { runRehearsalJob, type RehearsalJob } from '../../engine/stepper/job.js';

// The work a pool's thread does: each export is one kind of job, pure engine work on data that crossed by structured
// clone (bars as typed columns, never JSON text).

export const rehearsal = (job: RehearsalJob): Rehearsal => runRehearsalJob(job);
