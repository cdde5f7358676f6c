import { channel } from 'node:diagnostics_channel';

/** What became of one call to an outside party: an answer in 2xx, another answer, or none (network, timeout). */
export type UpstreamOutcome = 'ok' | 'refused' | 'unreachable';

export interface UpstreamCall {
  /** The upstream's name, as its client names it in refusals (venue tape, the grader, ...). */
  upstream: string;
  outcome: UpstreamOutcome;
  /** The HTTP status answered; null when nothing was. */
  status: number | null;
  seconds: number;
  /** When the answer (or its absence) came, unix ms. */
  at: number;
}

/**
 * Every HTTP call the deck makes to an outside party is published on this channel when it is answered or fails, so
 * the observability plane can count calls and keep each upstream's last answer without the clients knowing of it.
 * Publishing costs nothing while nobody subscribes.
 */
export const upstreamCalls = channel('deck:upstream-call');

/** Runs one outbound request and publishes what became of it (the status once headers arrive). */
export async function watched<T extends { statusCode: number }>(upstream: string, request: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const publish = (status: number | null) => {
    if (!upstreamCalls.hasSubscribers) return;
    const outcome: UpstreamOutcome = status === null ? 'unreachable' : status >= 200 && status < 300 ? 'ok' : 'refused';
    upstreamCalls.publish({ upstream, outcome, status, seconds: (performance.now() - started) / 1000, at: Date.now() } satisfies UpstreamCall);
  };
  try {
    const res = await request();
    publish(res.statusCode);
    return res;
  } catch (error) {
    publish(null);
    throw error;
  }
}
