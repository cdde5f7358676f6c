import { Signal } from '../core/signal.js';

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
 * Every HTTP call the deck makes to an outside party is published here when it is answered or fails, so the
 * observability plane can count calls and keep each upstream's last answer without the clients knowing of it.
 */
export const upstreamCalls = new Signal<UpstreamCall>('deck:upstream-call');

/** Publishes what became of one call begun at `started` (performance.now()). */
export function publishCall(upstream: string, started: number, outcome: UpstreamOutcome, status: number | null): void {
  upstreamCalls.publish({ upstream, outcome, status, seconds: (performance.now() - started) / 1000, at: Date.now() });
}

/** Runs one outbound request and publishes what became of it (the status once headers arrive). */
export async function watched<T extends { statusCode: number }>(upstream: string, request: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const res = await request();
    publishCall(upstream, started, res.statusCode >= 200 && res.statusCode < 300 ? 'ok' : 'refused', res.statusCode);
    return res;
  } catch (error) {
    publishCall(upstream, started, 'unreachable', null);
    throw error;
  }
}
