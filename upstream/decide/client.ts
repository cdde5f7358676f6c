import type { NamedTargets } from '../named-targets.js';
import { undici } from '../undici.js';

/** What one call of a model's decide() came to. */
export type DecideOutcome =
  | { kind: 'answer'; status: number; body: unknown; parsed: boolean; ms: number }
  | { kind: 'timeout'; ms: number }
  | { kind: 'unreachable'; why: string; ms: number };

/**
 * One POST of a bar to a model's decide() endpoint (undici, through the named targets' pool: a URL a person named,
 * so only to the address checked where it connects), bounded by `timeoutMs` from the request's start to the answer's
 * last byte, and by `stop` (the run ending). The answer is handed back as it came; judging it is the typed lane's.
 */
export async function askDecide(targets: NamedTargets, url: string, body: unknown, timeoutMs: number, stop: AbortSignal): Promise<DecideOutcome> {
  const started = performance.now();
  const ms = () => Math.round((performance.now() - started) * 100) / 100;
  // One controller per call, aborted by its own timer or by the run stopping (cheaper than composed signals).
  const call = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    call.abort();
  }, timeoutMs);
  const onStop = () => call.abort();
  stop.addEventListener('abort', onStop, { once: true });
  try {
    const res = await (await undici()).request(url, {
      dispatcher: await targets.dispatcher(),
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: call.signal,
    });
    const text = await res.body.text();
    try {
      return { kind: 'answer', status: res.statusCode, body: JSON.parse(text) as unknown, parsed: true, ms: ms() };
    } catch {
      return { kind: 'answer', status: res.statusCode, body: text.slice(0, 200), parsed: false, ms: ms() };
    }
  } catch (error) {
    if (timedOut) return { kind: 'timeout', ms: ms() };
    return { kind: 'unreachable', why: (error as Error).message, ms: ms() };
  } finally {
    clearTimeout(timer);
    stop.removeEventListener('abort', onStop);
  }
}
