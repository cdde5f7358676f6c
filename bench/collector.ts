import { WebSocket } from 'undici';

// A server's garbage collector, run on demand from outside through its inspector (node --inspect), so the deck is
// measured as it runs, with nothing added to it: the same call for the deck and for a baseline.

/** The environment that opens a server's inspector on a free loopback port. */
export const INSPECTED = { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --inspect=127.0.0.1:0`.trim() };

/** The inspector's address in what a server logged at its start. */
export function inspectorOf(logged: string): string {
  const url = /Debugger listening on (ws:\/\/\S+)/.exec(logged)?.[1];
  if (!url) throw new Error('the server opened no inspector: start it with INSPECTED');
  return url;
}

/** What a full collection left: the live JavaScript heap, in MiB. */
export interface Collected {
  heapUsedMiB: number;
}

/**
 * Runs a full collection that gives back what it can (V8's collect-all-available-garbage, as HeapProfiler asks it)
 * and answers the heap it left in use.
 */
export async function collectGarbage(inspector: string): Promise<Collected> {
  const ws = new WebSocket(inspector);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve(), { once: true });
    ws.addEventListener('error', () => reject(new Error(`no inspector at ${inspector}`)), { once: true });
  });
  let id = 0;
  const ask = (method: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const mine = ++id;
      const onMessage = (e: { data: unknown }) => {
        const m = JSON.parse(String(e.data)) as { id?: number; result?: Record<string, unknown>; error?: { message: string } };
        if (m.id !== mine) return;
        ws.removeEventListener('message', onMessage);
        if (m.error) reject(new Error(`${method}: ${m.error.message}`));
        else resolve(m.result ?? {});
      };
      ws.addEventListener('message', onMessage);
      ws.send(JSON.stringify({ id: mine, method }));
    });
  try {
    await ask('HeapProfiler.collectGarbage');
    const usage = await ask('Runtime.getHeapUsage');
    return { heapUsedMiB: Number(usage.usedSize) / 1024 / 1024 };
  } finally {
    ws.close();
  }
}
