import { channel, subscribe, unsubscribe, type Channel } from 'node:diagnostics_channel';

/**
 * A named diagnostics channel carrying one kind of message: a part of the deck publishes what it measured (an upstream
 * call, a ledger head held, a job's hand-off) without knowing who listens, and the observability plane listens without
 * the part knowing of it. Publishing costs nothing while nobody listens.
 */
export class Signal<M> {
  private readonly channel: Channel;

  constructor(readonly name: string) {
    this.channel = channel(name);
  }

  publish(message: M): void {
    if (this.channel.hasSubscribers) this.channel.publish(message);
  }

  /** Hears every message from now on; answers the call that stops hearing them. */
  listen(hear: (message: M) => void): () => void {
    const listener = (message: unknown) => hear(message as M);
    subscribe(this.name, listener);
    return () => void unsubscribe(this.name, listener);
  }
}
