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
 * One JSON call to an upstream with undici: bounded time, no retries (callers that may retry say so).
 * A network failure or timeout is 503 naming the upstream; what the upstream answered is returned as is.
 */
export async function callJson(
  upstream: string,
  url: string,
  init: { method: 'GET' | 'POST'; body?: unknown; token?: string | null; timeoutMs?: number },
): Promise<JsonAnswer> {
  const timeout = init.timeoutMs ?? 5000;
  try {
    const res = await watched(upstream, async () => (await undici()).request(url, {
      method: init.method,
      headers: {
        accept: 'application/json',
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
      body: init.body !== undefined ? JSON.stringify(init.body) : null,
      headersTimeout: timeout,
      bodyTimeout: timeout,
    }));
    const text = await res.body.text();
    try {
      return { status: res.statusCode, body: JSON.parse(text) as unknown, parsed: true };
    } catch {
      // Not JSON: the caller sees the text and decides whether that is a refusal.
      return { status: res.statusCode, body: text || null, parsed: false };
    }
  } catch (error) {
    throw unreachable(upstream, (error as Error).message);
  }
}

/** An answer outside 2xx is the upstream refusing: 502 carrying what it said. */
export function expectOk(upstream: string, answer: JsonAnswer): unknown {
  if (answer.status >= 200 && answer.status < 300) return answer.body;
  throw refusedBy(upstream, answer.body);
}

