import PQueue from 'p-queue';

/**
 * Work that takes turns by name inside this process: one at a time for each name, in the order asked, each name's
 * queue dropped once it is idle. The backends' `alone` runs in it, so the work of one name waits its turn here (where
 * waiting costs nothing) before it holds the store's place for that name.
 */
export class Turns {
  private readonly queues = new Map<string, PQueue>();

  run<R>(name: string, work: () => Promise<R>): Promise<R> {
    let queue = this.queues.get(name);
    if (!queue) this.queues.set(name, (queue = new PQueue({ concurrency: 1 })));
    const q = queue;
    return (q.add(work) as Promise<R>).finally(() => {
      if (q.pending + q.size === 0) this.queues.delete(name);
    });
  }
}
