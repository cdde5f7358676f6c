import PQueue from 'p-queue';
import { limitReached } from './errors.js';

/** The concurrency guards tools may name, with how many may run at once for one principal. */
export const GUARDS = {
  forge_cast: { running: 1, refusal: 'a forge cast is already running for you' },
  trial: { running: 2, refusal: 'two trials are already running for you' },
  ledger_walk: { running: 1, refusal: 'a ledger walk is already running for you' },
} as const;
export type GuardName = keyof typeof GUARDS;

/** A guarded call ends on its own soon; the caller is told to try again after this many seconds. */
const GUARD_RETRY_S = 1;

/**
 * One p-queue per (guard, principal). A call that finds its queue full is refused with 429 here and
 * nowhere else; an admitted call runs inside the queue so the count is exact.
 */
export class Guards {
  private readonly queues = new Map<string, PQueue>();

  run<R>(name: GuardName, principalId: string, work: () => Promise<R>): Promise<R> {
    const { running, refusal } = GUARDS[name];
    const key = `${name}|${principalId}`;
    let q = this.queues.get(key);
    if (!q) {
      q = new PQueue({ concurrency: running });
      this.queues.set(key, q);
    }
    if (q.pending + q.size >= running) return Promise.reject(limitReached('busy', refusal, GUARD_RETRY_S, { guard: name }));
    const queue = q;
    return (queue.add(work) as Promise<R>).finally(() => {
      if (queue.pending + queue.size === 0) this.queues.delete(key);
    });
  }

  /** Calls running or waiting under each guard, every principal's together (the observability plane reads it). */
  depths(): Record<GuardName, number> {
    const depths = Object.fromEntries(Object.keys(GUARDS).map((name) => [name, 0])) as Record<GuardName, number>;
    for (const [key, q] of this.queues) depths[key.slice(0, key.indexOf('|')) as GuardName] += q.pending + q.size;
    return depths;
  }
}
