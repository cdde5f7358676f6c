import PQueue from 'p-queue';
import { DeckError } from './errors.js';

/** The concurrency guards tools may name, with how many may run at once for one principal. */
export const GUARDS = {
  forge_cast: { running: 1, refusal: 'a forge cast is already running for you' },
  trial: { running: 2, refusal: 'two trials are already running for you' },
  /** Waits its turn rather than being refused. */
  key_rotation: { running: 1, refusal: null },
} as const;
export type GuardName = keyof typeof GUARDS;

/**
 * One p-queue per (guard, principal). A call that finds its queue full is refused with 429 here and
 * nowhere else (a guard without a refusal queues it instead); an admitted call runs inside the queue so the
 * count is exact.
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
    if (refusal !== null && q.pending + q.size >= running) return Promise.reject(new DeckError(429, 'busy', refusal, { guard: name }));
    const queue = q;
    return (queue.add(work) as Promise<R>).finally(() => {
      if (queue.pending + queue.size === 0) this.queues.delete(key);
    });
  }
}
