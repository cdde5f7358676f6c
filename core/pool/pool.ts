import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { DeckError } from '../errors.js';
import { FairQueue } from '../fair-queue.js';
import * as work from './worker.js';

/** The kinds of work the pool runs, by the worker's export that runs each. */
type Work = typeof work;
export type WorkKind = keyof Work;

export interface PoolLimits {
  /** Worker threads; 0 runs the work on the event loop, as a deck with one core must. */
  threads: number;
  /** Jobs one principal may hold, running or waiting; one more is 429 lane_full. */
  lane: number;
  /** Jobs every principal's together may hold, running or waiting; one more is 429 queue_full. */
  held: number;
}

/** Whose turn a job takes (a principal, or a client's address before one is known), and the signal that cancels it. */
export interface WorkAsk {
  owner: string;
  signal?: AbortSignal;
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
 * on the first job, so a deck that forges nothing spends nothing on them.
 */
export class WorkPool {
  private threads: Piscina | null = null;
  private readonly turns: FairQueue;

  constructor(readonly limits: PoolLimits) {
    this.turns = new FairQueue('work', Math.max(1, limits.threads), limits.lane, limits.held);
  }

  async run<K extends WorkKind>(kind: K, input: Parameters<Work[K]>[0], ask: WorkAsk): Promise<Awaited<ReturnType<Work[K]>>> {
    const release = await this.turns.turn(ask.owner);
    try {
      if (ask.signal?.aborted) throw cancelled();
      if (this.limits.threads === 0) return await (work[kind] as (x: typeof input) => Promise<Awaited<ReturnType<Work[K]>>>)(input);
      this.threads ??= new Piscina({
        filename: workerFile(),
        minThreads: this.limits.threads,
        maxThreads: this.limits.threads,
        // A thread loads the engine once and stays for the next job.
        idleTimeout: 60_000,
      });
      return await this.threads.run(input, { name: kind, ...(ask.signal ? { signal: ask.signal } : {}) }).catch((error: unknown) => {
        throw ask.signal?.aborted ? cancelled() : error;
      });
    } finally {
      release();
    }
  }

  /** Jobs running or waiting, every principal's together. */
  depth(): number {
    return this.turns.depth();
  }

  async close(): Promise<void> {
    await this.threads?.destroy();
    this.threads = null;
  }
}
