import { undici } from './undici.js';
import { watched } from './watch.js';
import { refusedBy, unreachable } from '../core/errors.js';

export interface JsonAnswer {
  status: number;
  body: unknown;
  /** False when the body was not JSON (then `body` is its text, or null when empty). */
  parsed: boolean;
}

/**
 * One JSON call to an upstream with undici: one deadline for the whole exchange, from asking to the answer's last byte
 * (an upstream that drips its answer is cut at the deadline, not at a deadline between bytes), no retries (callers
 * that may retry say so). `ended` (the end of the request it is asked for) cancels it: given only where nobody else
 * needs its answer. A network failure, the deadline or the end is 503 naming the upstream; what the upstream
 * answered is returned as is.
 */
export async function callJson(
  upstream: string,
  url: string,
  init: { method: 'GET' | 'POST'; body?: unknown; token?: string | null; timeoutMs?: number; ended?: AbortSignal },
): Promise<JsonAnswer> {
  const timeout = init.timeoutMs ?? 5000;
  const deadline = AbortSignal.timeout(timeout);
  const signal = init.ended ? AbortSignal.any([deadline, init.ended]) : deadline;
  try {
    const res = await watched(upstream, async () => (await undici()).request(url, {
      method: init.method,
      headers: {
        accept: 'application/json',
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
      body: init.body !== undefined ? JSON.stringify(init.body) : null,
      signal,
    }));
    const text = await res.body.text();
    try {
      return { status: res.statusCode, body: JSON.parse(text) as unknown, parsed: true };
    } catch {
      // Not JSON: the caller sees the text and decides whether that is a refusal.
      return { status: res.statusCode, body: text || null, parsed: false };
    }
  } catch (error) {
    const why = deadline.aborted ? `no answer within ${timeout / 1000} s` : init.ended?.aborted ? 'the request it was asked for ended' : (error as Error).message;
    throw unreachable(upstream, why);
  }
}

/** An answer outside 2xx is the upstream refusing: 502 carrying what it said. */
export function expectOk(upstream: string, answer: JsonAnswer): unknown {
  if (answer.status >= 200 && answer.status < 300) return answer.body;
  throw refusedBy(upstream, answer.body);
}

