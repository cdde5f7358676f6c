import express from 'express';
import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { readConfig } from '../config/env.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deckServer } from '../rest/http-server.js';
import { testDeck, type TestDeck } from './support/deck.js';

/** What a listener ahead of the app sees of each request and response, before express has touched them. */
interface Birth {
  request: boolean;
  response: boolean;
  node: boolean;
}

/** Records each request's prototypes as the server made them: a listener put ahead of the app's. */
function watchBirths(server: Server, app: express.Express): Birth[] {
  const births: Birth[] = [];
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    births.push({
      request: Object.getPrototypeOf(req) === app.request,
      response: Object.getPrototypeOf(res) === app.response,
      node: req instanceof IncomingMessage && res instanceof ServerResponse,
    });
  });
  return births;
}

describe("the deck's HTTP server", () => {
  it('makes each request and response with the app’s own prototypes, so express changes neither', async () => {
    const app = express();
    app.get('/q', (req, res) => void res.cookie('c', 'v').json({ query: req.query, path: req.path }));
    app.post('/echo', express.json(), (req, res) => void res.status(201).json(req.body));
    const { server, serve } = deckServer(readConfig({}).http);
    serve(app);
    const births = watchBirths(server, app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const got = await fetch(`${url}/q?a=1&b=two`);
      expect(got.status).toBe(200);
      expect(got.headers.get('set-cookie')).toMatch(/^c=v; Path=\//);
      expect(await got.json()).toEqual({ query: { a: '1', b: 'two' }, path: '/q' });
      const posted = await fetch(`${url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"x":[1,2]}' });
      expect(posted.status).toBe(201);
      expect(await posted.json()).toEqual({ x: [1, 2] });
      expect((await fetch(`${url}/nowhere`)).status).toBe(404);
      expect(births).toEqual(Array(3).fill({ request: true, response: true, node: true }));
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  describe('under a running deck', () => {
    let deck: TestDeck;
    let births: Birth[];
    beforeAll(async () => {
      deck = await testDeck();
      const app = deck.server.listeners('request').at(-1) as express.Express;
      births = watchBirths(deck.server, app);
    });
    afterAll(() => deck.stop());

    it('serves REST and MCP on requests born as express makes them', async () => {
      expect((await fetch(`${deck.url}/plans`)).status).toBe(200);
      const mcp = await fetch(`${deck.url}/mcp/candles`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'catalogue', arguments: {} } }),
      });
      expect(mcp.status).toBe(200);
      expect(((await mcp.json()) as { result: { isError?: boolean } }).result.isError).toBeUndefined();
      expect(births).toEqual(Array(2).fill({ request: true, response: true, node: true }));
    });
  });

  it('holds by default 1,000 connections, 20 s for headers, 60 s for a request and 65 s for an idle connection', async () => {
    expect(readConfig({}).http).toEqual({ maxConnections: 1000, headersTimeoutMs: 20_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 65_000 });
    const deck = await testDeck();
    try {
      const { maxConnections, headersTimeout, requestTimeout, keepAliveTimeout } = deck.server;
      expect({ maxConnections, headersTimeout, requestTimeout, keepAliveTimeout }).toEqual({ maxConnections: 1000, headersTimeout: 20_000, requestTimeout: 60_000, keepAliveTimeout: 65_000 });
    } finally {
      await deck.stop();
    }
    expect(() => readConfig({ DECK_HEADERS_TIMEOUT_S: '30', DECK_REQUEST_TIMEOUT_S: '10' })).toThrow('DECK_HEADERS_TIMEOUT_S: at most DECK_REQUEST_TIMEOUT_S');
  });

  describe('with its bounds set short (DECK_MAX_CONNECTIONS=3, 1 s for headers, 2 s for a request, 1 s idle)', () => {
    let deck: TestDeck;
    let port: number;
    const open: Socket[] = [];
    beforeAll(async () => {
      deck = await testDeck({ DECK_MAX_CONNECTIONS: '3', DECK_HEADERS_TIMEOUT_S: '1', DECK_REQUEST_TIMEOUT_S: '2', DECK_KEEPALIVE_TIMEOUT_S: '1' });
      port = new URL(deck.url).port as unknown as number;
    });
    afterAll(async () => {
      for (const s of open) s.destroy();
      await deck.stop();
    });

    /** A raw connection: what it was answered, and when (ms after it opened) the deck closed it. */
    function raw(send?: string) {
      const socket = connect(Number(port), '127.0.0.1');
      open.push(socket);
      const opened = Date.now();
      const seen = { answer: '', closedAfter: null as number | null, connected: false };
      socket.on('connect', () => {
        seen.connected = true;
        if (send) socket.write(send);
      });
      socket.on('data', (d: Buffer) => void (seen.answer += d.toString()));
      socket.on('error', () => {});
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve(void (seen.closedAfter = Date.now() - opened))));
      return { socket, seen, closed };
    }
    const GET = 'GET /mcp HTTP/1.1\r\nHost: deck\r\nConnection: keep-alive\r\n\r\n';
    const settle = () => new Promise((r) => setTimeout(r, 150));

    it('closes a connection past the cap as it opens, answering nothing; one more is taken once one closes', async () => {
      const held = [raw(GET), raw(GET), raw(GET)];
      await settle();
      expect(held.map((h) => h.seen.answer.split('\r\n')[0])).toEqual(Array(3).fill('HTTP/1.1 200 OK'));
      const past = raw(GET);
      await past.closed;
      expect(past.seen.answer).toBe('');
      expect(past.seen.closedAfter).toBeLessThan(500);
      held[0]!.socket.destroy();
      await held[0]!.closed;
      await settle();
      const next = raw(GET);
      await settle();
      expect(next.seen.answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
      for (const h of [...held, next]) h.socket.destroy();
      await Promise.all([...held, next].map((h) => h.closed));
    });

    it('closes a connection idle after its answer once the keep-alive timeout passes', async () => {
      const idle = raw(GET);
      await idle.closed;
      expect(idle.seen.answer).toMatch(/^HTTP\/1.1 200 OK\r\n[^]*Keep-Alive: timeout=1\r\n/i);
      // Node closes it a second after the timeout it announces.
      expect(idle.seen.closedAfter).toBeGreaterThanOrEqual(900);
      expect(idle.seen.closedAfter).toBeLessThan(3_500);
    });

    it('answers 408 and closes, 1 s on, a connection that never sends a request and one whose headers never end', async () => {
      const silent = raw();
      const slow = raw('GET /mcp HTTP/1.1\r\nHost: deck\r\n');
      await Promise.all([silent.closed, slow.closed]);
      for (const c of [silent, slow]) {
        expect(c.seen.answer).toMatch(/^HTTP\/1.1 408 Request Timeout/);
        expect(c.seen.closedAfter).toBeGreaterThanOrEqual(900);
        expect(c.seen.closedAfter).toBeLessThan(2_500);
      }
    });

    it('answers 408 to a request whose body is still arriving 2 s after it began', async () => {
      const body = raw('POST /mcp HTTP/1.1\r\nHost: deck\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
      const drip = setInterval(() => body.socket.writable && body.socket.write(' '), 300);
      await body.closed;
      clearInterval(drip);
      expect(body.seen.answer).toMatch(/^HTTP\/1.1 408 Request Timeout/);
      expect(body.seen.closedAfter).toBeGreaterThanOrEqual(1_900);
      expect(body.seen.closedAfter).toBeLessThan(3_500);
    });
  });
});
