import PQueue from 'p-queue';
import { guardPlace, type Backend } from '../store/backend.js';
import { DeckError, limitReached } from '../core/errors.js';

/** How many calls a guard lets run at once for one key, and how it refuses the next (429 busy unless told; null: it queues). */
interface GuardRule {
  running: number;
  refusal: string | null;
  status?: number;
  code?: string;
}

/** The concurrency guards tools may name. */
export const GUARDS = {
  forge_cast: { running: 1, refusal: 'a forge cast is already running for you' },
  trial: { running: 2, refusal: 'two trials are already running for you' },
  // One epoch opening per series: of concurrent opens exactly one reaches the layer; the others are 409.
  epoch_open: { running: 1, refusal: 'an epoch of this series is being opened now', status: 409, code: 'epoch_opening' },
  ledger_walk: { running: 1, refusal: 'a ledger walk is already running for you' },
  /** Waits its turn rather than being refused. */
  key_rotation: { running: 1, refusal: null },
  /** One join at a time for the whole house (every deck on a shared store): the day's counts are read in turn. */
  join: { running: 1, refusal: null },
} as const satisfies Record<string, GuardRule>;
export type GuardName = keyof typeof GUARDS;

/** The status a guard refuses with: 429 busy unless told; none for a guard that queues. */
export const guardStatus = (name: GuardName): number | null => {
  const { refusal, status } = GUARDS[name] as GuardRule;
  return refusal === null ? null : (status ?? 429);
};

/** A guarded call ends on its own soon; the caller is told to try again after this many seconds. */
const GUARD_RETRY_S = 1;

const refusalOf = (name: GuardName): Error => {
  const { refusal, status, code = 'busy' } = GUARDS[name] as GuardRule;
  return status ? new DeckError(status, code, refusal!, { guard: name }) : limitReached(code, refusal!, GUARD_RETRY_S, { guard: name });
};

/**
 * One p-queue per (guard, key), the key being the principal or what the tool names besides it (a series). A call
 * that finds its queue full is refused here (a guard without a refusal queues it instead); an admitted call runs
 * inside the queue so the count is exact. Inside the queue it also holds its place in the store, which on a store
 * many decks share (PostgreSQL's advisory locks) refuses, or queues, a call another deck's calls leave no place for.
 */
export class Guards {
  private readonly queues = new Map<string, PQueue>();

  constructor(private readonly places: Pick<Backend, 'hold'>) {}

  run<R>(name: GuardName, key: string, work: () => Promise<R>): Promise<R> {
    const rule: GuardRule = GUARDS[name];
    const id = guardPlace(name, key);
    let q = this.queues.get(id);
    if (!q) {
      q = new PQueue({ concurrency: rule.running });
      this.queues.set(id, q);
    }
    if (rule.refusal !== null && q.pending + q.size >= rule.running) return Promise.reject(refusalOf(name));
    const queue = q;
    const held = async () => {
      const release = await this.places.hold(id, rule.running, rule.refusal === null);
      if (!release) throw refusalOf(name);
      try {
        return await work();
      } finally {
        await release();
      }
    };
    return (queue.add(held) as Promise<R>).finally(() => {
      if (queue.pending + queue.size === 0) this.queues.delete(id);
    });
  }

  /** Calls running or waiting under each guard, every principal's together (the observability plane reads it). */
  depths(): Record<GuardName, number> {
    const depths = Object.fromEntries(Object.keys(GUARDS).map((name) => [name, 0])) as Record<GuardName, number>;
    for (const [key, q] of this.queues) depths[key.slice(0, key.indexOf('|')) as GuardName] += q.pending + q.size;
    return depths;
  }
}
