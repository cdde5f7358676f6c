import type { MessagePort } from 'node:worker_threads';
import { readImage, type ImageRead } from '../image.js';
import { parseJsonBody } from '../json.js';
import { runIssueJob, type IssueJob, type IssueOutcome } from '../../engine/forecast/job.js';
import { runForgeJob, type ForgeJob, type ForgeOutcome } from '../../engine/forge/job.js';
import { drawPlateJob, drawRehearsalPlateJob, type Drawn, type Plate, type PlateInput, type RehearsalPlate, type RehearsalPlateInput } from '../../engine/plate/index.js';
import { readRule, type RuleReading } from '../../engine/reader/index.js';
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

/** A forge: the script cast into watermarked code, its self-review and its scan. */
export const forging = ({ input }: Job<ForgeJob>): ForgeOutcome => runForgeJob(input);

/** The embedded reader's reading of some words (up to the forge's 256 KB, a read of some hundreds of milliseconds). */
export const reading = ({ input }: Job<string>): RuleReading => readRule(input);

/** A large request body parsed as JSON (a 5 MB image's body holds the loop some tens of milliseconds). */
export const parsing = ({ input }: Job<Uint8Array>): unknown => parseJsonBody(input);

/** An image sent as base64, decoded, its type sniffed and its bytes hashed, held to the cap. */
export const imaging = ({ input }: Job<{ base64: string; cap: number }>): Promise<ImageRead> => readImage(input.base64, input.cap);

/** A forecast envelope issued from the pair's look-back bars (8-12 ms on the loop for a few thousand bars). */
export const forecasting = ({ input }: Job<IssueJob>): IssueOutcome => runIssueJob(input);

/** A candle chart drawn and rasterized (some tens of milliseconds for a plate's 2,000 bars). */
export const drawing = ({ input }: Job<PlateInput>): Drawn<Plate> => drawPlateJob(input);

/** A rehearsal's plate drawn and rasterized (about 100 ms for a month of minutes). */
export const drawingRehearsal = ({ input }: Job<RehearsalPlateInput>): Drawn<RehearsalPlate> => drawRehearsalPlateJob(input);
