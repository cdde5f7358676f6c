import { Agent, request } from 'undici';

export interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export interface Client {
  /** POST `body` as JSON (or GET when there is none) from this client's address. */
  call(url: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  close(): Promise<void>;
}

/**
 * A client calling from its own loopback address (every address of 127.0.0.0/8 is this machine), so one
 * test can be several clients to limits the deck keeps per client address.
 */
export function fromAddress(localAddress: string): Client {
  const dispatcher = new Agent({ localAddress });
  return {
    async call(url, body, headers = {}) {
      const res = await request(url, {
        dispatcher,
        method: body === undefined ? 'GET' : 'POST',
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined ? null : JSON.stringify(body),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? JSON.parse(text) : null, headers: res.headers };
    },
    close: () => dispatcher.close(),
  };
}
