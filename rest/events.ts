import type { Response } from 'express';
import type { EventStream } from '../tools/define.js';
import { DeckError, internalFailure } from '../core/errors.js';
import type { Logger } from '../config/logger.js';

const frame = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * Sends an answer as server-sent events: each event as it is made, then `done` carrying the whole answer; a refusal or
 * failure after the stream began is an `error` event with the refusal's body (a failure of the deck's own says only
 * that it failed, and is logged). A caller that goes away ends the events (the work behind them stops with the
 * request: the tool's ctx.ended()).
 */
export async function sendEvents(res: Response, stream: EventStream, log: Logger): Promise<void> {
  res.status(200).set({ 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
  res.flushHeaders();
  let gone = false;
  res.once('close', () => {
    if (res.writableFinished) return;
    gone = true;
    void stream.events.return({}).catch(() => {});
  });
  try {
    for (;;) {
      const next = await stream.events.next();
      if (gone) return;
      if (next.done) {
        res.end(frame('done', next.value));
        return;
      }
      res.write(frame(next.value.event, next.value.data));
    }
  } catch (error) {
    if (gone) return;
    const refusal = error instanceof DeckError ? error : internalFailure();
    if (refusal !== error) log.error('stream_failed', { error: (error as Error).message });
    res.end(frame('error', { ...refusal.body(), status: refusal.status }));
  }
}
