import type { ServerResponse } from 'node:http';

/**
 * A signal that aborts when a request has ended (its answer sent, or its client gone: either way the response closes),
 * made on the first call: most requests ask nothing upstream, and pay nothing for it.
 */
export function endOf(res: ServerResponse): () => AbortSignal {
  let signal: AbortSignal | null = null;
  return () => {
    if (signal) return signal;
    if (res.closed) return (signal = AbortSignal.abort());
    const ended = new AbortController();
    res.once('close', () => ended.abort());
    return (signal = ended.signal);
  };
}
