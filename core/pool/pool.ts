import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { DeckError } from '../errors.js';
import { FairQueue } from '../fair-queue.js';
import { workHandOffs } from './hand-off.js';
import { putLongStrings, takeLongStrings } from './long-strings.js';
import { LONG_TEXT, type OnThread, type ThreadJob } from './thread.js';
import * as work from './worker.js';

/** The kinds of work the pool runs, by the worker's export that runs each. */
type Work = typeof work;
export type WorkKind = keyof Work;
type InputOf<K extends WorkKind> = Parameters<Work[K]>[0]['input'];
/** What a job tells of itself as it runs (the engine's steps of that kind of work). */
type StepOf<K extends WorkKind> = Parameters<NonNullable<Parameters<Work[K]>[1]>>[0];

/** Where a job stands in the pool, told before the job's own steps. */
export type PoolStep = { phase: 'queued'; ahead: number } | { phase: 'running' };

export interface PoolLimits {
  /** Worker threads; 0 runs the work on the event loop, as a deck with one core must. */
  threads: number;
  /** Jobs one principal may hold, running or waiting; one more is 429 lane_full. */
  lane: number;
  /** Jobs every principal's together may hold, running or waiting; one more is 429 queue_full. */
  held: number;
}

/**
 * Jobs that wait for the threads to load: a rehearsal's seconds of work belong off the loop whatever it takes. The
 * rest take milliseconds to some hundreds, less than threads take to load: they run on the loop until the threads are
 * warm.
 */
const HEAVY: ReadonlySet<WorkKind> = new Set(['rehearsal']);

/**
 * Whose turn a job takes (a principal, or a client's address before one is known), the signal that cancels it, and
 * what of its input is moved to the thread rather than copied (the caller's copy is left empty: the caller must not
 * read it after).
 */
export interface WorkAsk {
  owner: string;
  signal?: AbortSignal;
  transfer?: ArrayBuffer[];
}

/** The worker module: the bundle's own beside the built deck, or, run from source, one that loads TypeScript first. */
function workerFile(): string {
  const here = import.meta.url;
  if (here.endsWith('.ts')) return fileURLToPath(new URL('./from-source.mjs', here));
  // Bundled, this code sits in dist/main.js, beside the worker's entry (test/npm-scripts.test.ts rehearses there).
  return fileURLToPath(new URL('./pool-worker.js', here));
}

/** The work ended before it ran or while it ran: the request that asked for it had ended (its client gone). */
const cancelled = (): DeckError => new DeckError(503, 'cancelled', 'the work was cancelled: the request that asked for it ended');

/**
 * CPU-heavy work (rehearsals with their null, folds and verdict; the forge's cast, review and scan; the reader on
 * words of up to 256 KB) off the event loop: a pool of worker threads (piscina), whose turns are handed out fairly
 * per principal with bounded lanes and a bounded queue (FairQueue), so a busy principal neither stalls a light call
 * nor starves another principal, and a full queue answers 429 with Retry-After instead of an unbounded wait. A job
 * whose request has ended is cancelled: dropped while it waits, its thread stopped while it runs. The threads start
 * on the first job, so a deck that forges nothing spends nothing on them; until they have loaded, only a rehearsal
 * waits for them.
 */
export class WorkPool {
  private threads: Piscina | null = null;
  /** Whether a thread has answered: until then the threads are still loading (seconds, run from source). */
  private warm = false;
  private readonly turns: FairQueue;
  /** Jobs run since start, by kind: how many on a thread, how many on the loop. */
  private readonly ran = new Map<WorkKind, Record<'thread' | 'loop', number>>();

  constructor(readonly limits: PoolLimits) {
    this.turns = new FairQueue('work', Math.max(1, limits.threads), limits.lane, limits.held);
  }

  /**
   * Runs a job in its principal's turn. `hear`, when given, is told where the job stands (waiting for a turn, then
   * running) and each step the job takes, in order; the answer is the same with or without it.
   */
  async run<K extends WorkKind>(kind: K, input: InputOf<K>, ask: WorkAsk & { hear?: (step: PoolStep | StepOf<K>) => void }): Promise<Awaited<ReturnType<Work[K]>>> {
    const hear = ask.hear;
    const ahead = this.turns.depth();
    if (hear && ahead >= Math.max(1, this.limits.threads)) hear({ phase: 'queued', ahead });
    const release = await this.turns.turn(ask.owner);
    try {
      if (ask.signal?.aborted) throw cancelled();
      hear?.({ phase: 'running' });
      const threads = this.limits.threads === 0 ? null : this.started();
      // A light job does not wait for threads still loading: it runs on the loop, as it would on one core.
      if (!threads || (!this.warm && !HEAVY.has(kind))) {
        this.count(kind, 'loop');
        const run = work[kind] as (job: work.Job<InputOf<K>>, tell?: (step: StepOf<K>) => void) => Promise<Awaited<ReturnType<Work[K]>>>;
        return await run({ input }, hear);
      }
      this.count(kind, 'thread');
      // The thread posts its steps on a port of its own, heard as they come.
      const channel = hear ? new MessageChannel() : null;
      channel?.port1.on('message', (step: StepOf<K>) => hear!(step));
      const { value, strings } = LONG_TEXT.has(kind) ? takeLongStrings(input) : { value: input, strings: [] };
      const job: ThreadJob = { kind, input: value, ...(strings.length ? { strings } : {}), ...(channel ? { port: channel.port2 } : {}) };
      const transferList = [...(channel ? [channel.port2] : []), ...(ask.transfer ?? []), ...strings.map((s) => s.bytes.buffer as ArrayBuffer)];
      try {
        const handed = performance.now();
        const done = (await threads.run(job, { ...(transferList.length ? { transferList } : {}), ...(ask.signal ? { signal: ask.signal } : {}) }).catch((error: unknown) => {
          throw ask.signal?.aborted ? cancelled() : error;
        })) as OnThread;
        workHandOffs.publish({ kind, seconds: Math.max(0, performance.now() - handed - done.ms) / 1000 });
        return (done.strings ? putLongStrings(done.answer, done.strings) : done.answer) as Awaited<ReturnType<Work[K]>>;
      } finally {
        // The answer comes on piscina's own port: steps posted before it and not yet heard are heard now, in order.
        if (channel) {
          for (let m = receiveMessageOnPort(channel.port1); m; m = receiveMessageOnPort(channel.port1)) hear!(m.message as StepOf<K>);
          channel.port1.close();
        }
      }
    } finally {
      release();
    }
  }

  /** The threads, started on the first job; they are warm once one has answered a first, empty job. */
  private started(): Piscina {
    if (this.threads) return this.threads;
    const threads = new Piscina({
      filename: workerFile(),
      name: 'run',
      minThreads: this.limits.threads,
      maxThreads: this.limits.threads,
      // A thread loads the engine once and stays for the next job.
      idleTimeout: 60_000,
    });
    threads.run({ kind: 'parsing', input: new Uint8Array(0) } satisfies ThreadJob).then(
      () => void (this.warm = true),
      () => {},
    );
    return (this.threads = threads);
  }

  private count(kind: WorkKind, where: 'thread' | 'loop'): void {
    const counts = this.ran.get(kind) ?? { thread: 0, loop: 0 };
    counts[where]++;
    this.ran.set(kind, counts);
  }

  /** Jobs run since start, by kind and where they ran (a thread, or the loop); a place none ran in is left out. */
  jobsRun(): { kind: string; where: string; n: number }[] {
    return [...this.ran].flatMap(([kind, counts]) => (['thread', 'loop'] as const).filter((where) => counts[where] > 0).map((where) => ({ kind, where, n: counts[where] })));
  }

  /** Jobs running or waiting, every principal's together. */
  depth(): number {
    return this.turns.depth();
  }

  async close(): Promise<void> {
    await this.threads?.destroy();
    this.threads = null;
    this.warm = false;
  }
}
