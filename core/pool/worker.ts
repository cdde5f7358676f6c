import { readImage, type ImageRead } from '../image.js';
import { parseJsonBody } from '../json.js';
import { runIssueJob, type IssueJob, type IssueOutcome } from '../../engine/forecast/job.js';
import { runForgeJob, type ForgeJob, type ForgeOutcome } from '../../engine/forge/job.js';
import { readRule, type RuleReading } from '../../engine/reader/index.js';
import type { Rehearsal } from '../../engine/stepper/index.js';
import { runRehearsalJob, type RehearsalJob } from '../../engine/stepper/job.js';

// The work a pool's thread does: each export is one kind of job, pure engine work on data that crossed by structured
// clone (bars as typed columns, never JSON text).

export const rehearsal = (job: RehearsalJob): Rehearsal => runRehearsalJob(job);

/** A forge: the script cast into watermarked code, its self-review and its scan. */
export const forging = (job: ForgeJob): ForgeOutcome => runForgeJob(job);

/** The embedded reader's reading of some words (up to the forge's 256 KB, a read of some hundreds of milliseconds). */
export const reading = (text: string): RuleReading => readRule(text);

/** A large request body parsed as JSON (a 5 MB image's body holds the loop some tens of milliseconds). */
export const parsing = (bytes: Uint8Array): unknown => parseJsonBody(bytes);

/** An image sent as base64, decoded, its type sniffed and its bytes hashed, held to the cap. */
export const imaging = ({ base64, cap }: { base64: string; cap: number }): Promise<ImageRead> => readImage(base64, cap);

/** A forecast envelope issued from the pair's look-back bars (8-12 ms on the loop for a few thousand bars). */
export const forecasting = (job: IssueJob): IssueOutcome => runIssueJob(job);
