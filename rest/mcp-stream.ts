import type { Request, Response } from 'express';
import type { JSONRPCMessage, JSONRPCNotification } from '@modelcontextprotocol/sdk/types.js';
import type { Hear } from '../sellers/tasks.js';

const frame = (json: string): string => `event: message\ndata: ${json}\n\n`;

/**
 * Where a lone 2025-era request may be told its notifications as they come: a client that takes an event stream
 * (Accept: text/event-stream) sending a request that gave a progressToken, or a tasks/result. Its answer turns into a
 * stream only when a notification comes: each notification, then the answer, as server-sent events; a request that
 * heard nothing is answered with one JSON body, as every other request is.
 */
export function answerStream(req: Request, res: Response, message: JSONRPCMessage): { hear: Hear | undefined; end: (answer: string) => boolean } {
  const m = message as { id?: unknown; method?: unknown; params?: { _meta?: { progressToken?: unknown } } };
  const asks = m.id !== undefined && (m.method === 'tasks/result' || m.params?._meta?.progressToken !== undefined);
  if (!asks || !(req.headers.accept ?? '').includes('text/event-stream')) return { hear: undefined, end: () => false };
  let streaming = false;
  const hear = (note: JSONRPCNotification) => {
    if (res.writableEnded) return;
    if (!streaming) {
      streaming = true;
      res.status(200).set({ 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
      res.flushHeaders();
    }
    res.write(frame(JSON.stringify(note)));
  };
  /** Ends a stream with the answer; false when the request heard nothing, so it is answered as JSON. */
  const end = (answer: string): boolean => {
    if (!streaming) return false;
    res.end(frame(answer));
    return true;
  };
  return { hear, end };
}
