/** A signal that never aborts: what a fetch asked for outside any request waits on. */
const NEVER = new AbortController().signal;

/**
 * The requests waiting on a client's metadata document, by client id. The fetch one of them sets off (through the
 * SDK's handlers, which name only the client id) is cancelled once every request asking for that client has ended:
 * a client that left is never waited for, and one that stays is never cut off for another that left.
 */
export class Askers {
  private readonly waiting = new Map<string, { open: number; ended: AbortController }>();

  /** A request asking for `id` has begun; call what this answers when it ends (once is enough; more is harmless). */
  asking(id: string): () => void {
    let w = this.waiting.get(id);
    if (!w) this.waiting.set(id, (w = { open: 0, ended: new AbortController() }));
    const held = w;
    held.open++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--held.open > 0) return;
      this.waiting.delete(id);
      held.ended.abort();
    };
  }

  /** Aborts once every request now asking for `id` has ended; never, when none is (a call outside a request). */
  signal(id: string): AbortSignal {
    return this.waiting.get(id)?.ended.signal ?? NEVER;
  }
}
