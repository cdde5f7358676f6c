import { isMainThread } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { takeLongStrings, type LongString } from './long-strings.js';
import { ownsItsMemory } from './own-memory.js';
import * as work from './worker.js';
import { yieldToTheLoop } from './yielding.js';

// A pool's thread yields its core to the event loop from the start (a test that imports this entry runs as it is).
if (!isMainThread) yieldToTheLoop();

/** A job as a thread takes it: which kind of work, and the job. */
export type ThreadJob = work.Job<unknown> & { kind: keyof typeof work };

/**
 * What a thread answers: the job's answer, and the thread's own time on it (ms), against which the hand-off is told;
 * with the answer's long strings, when its kind sends them as bytes (put back on the loop with putLongStrings).
 */
export interface OnThread {
  answer: unknown;
  ms: number;
  strings?: LongString[];
}

/**
 * The kinds whose answers carry bytes made for that answer alone (an image's, a plate's PNG): those bytes cross back
 * to the event loop by transfer, not by a copy the loop would make (megabytes into fresh memory, there).
 */
const BYTES_MOVED: ReadonlySet<ThreadJob['kind']> = new Set(['imaging', 'drawing', 'drawingRehearsal']);

/** The kinds whose answers may hold long strings (a body's image): they cross as bytes (core/pool/long-strings.ts). */
const STRINGS_AS_BYTES: ReadonlySet<ThreadJob['kind']> = new Set(['parsing']);

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
  const started = performance.now();
  const answer: unknown = await (work[job.kind] as (job: work.Job<unknown>) => unknown)(job);
  const ms = performance.now() - started;
  if (STRINGS_AS_BYTES.has(job.kind)) {
    const { value, strings } = takeLongStrings(answer);
    const done: OnThread = { answer: value, ms, strings };
    return strings.length ? (move(new Moved(done, strings.map((s) => s.bytes.buffer as ArrayBuffer))) as unknown as OnThread) : done;
  }
  const done: OnThread = { answer, ms };
  if (!BYTES_MOVED.has(job.kind)) return done;
  const buffers = [...ownBuffers(answer)];
  // Piscina hands the loop the value alone, its buffers moved: what the pool reads is the OnThread either way.
  return buffers.length ? (move(new Moved(done, buffers)) as unknown as OnThread) : done;
}
