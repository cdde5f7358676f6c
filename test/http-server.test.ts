import express from 'express';
import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
    const { server, serve } = deckServer();
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
});
