import { isMainThread } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { putLongStrings, takeLongStrings, type LongString } from './long-strings.js';
import { ownsItsMemory } from './own-memory.js';
import * as work from './worker.js';
import { yieldToTheLoop } from './yielding.js';

// A pool's thread yields its core to the event loop from the start (a test that imports this entry runs as it is).
if (!isMainThread) yieldToTheLoop();

/** A job as a thread takes it: which kind of work, and the job; with its input's long strings, when it has some. */
export type ThreadJob = work.Job<unknown> & { kind: keyof typeof work; strings?: LongString[] };

/**
 * What a thread answers: the job's answer, and the thread's own time on it (ms), against which the hand-off is told;
 * with the answer's long strings, when it has some.
 */
export interface OnThread {
  answer: unknown;
  ms: number;
  strings?: LongString[];
}

/**
 * The kinds whose input or answer may hold megabytes of text (a body's image, as JSON and as base64): their long
 * strings cross as bytes both ways (core/pool/long-strings.ts), put back where they arrive.
 */
export const LONG_TEXT: ReadonlySet<ThreadJob['kind']> = new Set(['parsing', 'imaging']);

/**
 * The kinds whose answers carry bytes made for that answer alone (an image's, a plate's PNG): those bytes cross back
 * to the event loop by transfer, not by a copy the loop would make (megabytes into fresh memory, there).
 */
const BYTES_MOVED: ReadonlySet<ThreadJob['kind']> = new Set(['imaging', 'drawing', 'drawingRehearsal']);

/** An answer handed back with the buffers that move with it, as piscina takes one. */
class Moved {
  constructor(
    private readonly value: OnThread,
    private readonly buffers: ArrayBuffer[],
  ) {}

  get [transferableSymbol](): ArrayBuffer[] {
    return this.buffers;
  }

  get [valueSymbol](): OnThread {
    return this.value;
  }
}

/** The buffers of the byte arrays in an answer that each hold their whole buffer (never a slab Node pools). */
function ownBuffers(value: unknown, found = new Set<ArrayBuffer>()): Set<ArrayBuffer> {
  if (ArrayBuffer.isView(value)) {
    if (ownsItsMemory(value)) found.add(value.buffer);
  } else if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) ownBuffers(inner, found);
  }
  return found;
}

/** A pool thread's one entry: runs the job's kind of work and times it where it runs. */
export async function run(job: ThreadJob): Promise<OnThread> {
  const input = job.strings ? putLongStrings(job.input, job.strings) : job.input;
  const started = performance.now();
  const answer: unknown = await (work[job.kind] as (job: work.Job<unknown>) => unknown)({ ...job, input });
  const ms = performance.now() - started;
  const { value, strings } = LONG_TEXT.has(job.kind) ? takeLongStrings(answer) : { value: answer, strings: [] };
  const done: OnThread = { answer: value, ms, ...(strings.length ? { strings } : {}) };
  const buffers = strings.length || BYTES_MOVED.has(job.kind) ? [...ownBuffers(done)] : [];
  // Piscina hands the loop the value alone, its buffers moved: what the pool reads is the OnThread either way.
  return buffers.length ? (move(new Moved(done, buffers)) as unknown as OnThread) : done;
}
