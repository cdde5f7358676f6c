import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDeck, type TestDeck } from './support/deck.js';
import { MCP_PATHS, rpc, SELLER_IDS, type RpcError } from './support/mcp.js';

// The wire rules of the MCP endpoints, read with plain fetch: what a POST answers, with what status and
// content type, for batches, notifications, bodies that are not JSON, bad bearers and foreign Origins.
let deck: TestDeck;
beforeAll(async () => {
  deck = await testDeck();
});
afterAll(() => deck.stop());

const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method, params });
const notification = (method: string) => ({ jsonrpc: '2.0', method });
const INITIALIZE = request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'wire', version: '1' } });
const BAD_BEARER = { authorization: 'Bearer not-a-session-of-this-deck' };

describe.each(MCP_PATHS)('POST %s', (path) => {
  const at = () => `${deck.url}${path}`;

  it('answers one request with one application/json answer', async () => {
    const a = await rpc(at(), INITIALIZE);
    expect(a.status).toBe(200);
    expect(a.contentType).toMatch(/^application\/json/);
    expect(a.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', serverInfo: { version: '1.0.0' } } });
  });

  it('answers a batch with an array holding only the answers to its requests', async () => {
    const a = await rpc(at(), [request(7, 'ping'), notification('notifications/initialized'), request(8, 'tools/list')]);
    expect(a.status).toBe(200);
    expect(a.contentType).toMatch(/^application\/json/);
    const answers = a.body as { id: number; result: unknown }[];
    expect(answers.map((x) => x.id).sort()).toEqual([7, 8]);
    expect(answers.find((x) => x.id === 7)?.result).toEqual({});
  });

  it('answers a lone notification 202 with no body', async () => {
    const a = await rpc(at(), notification('notifications/initialized'));
    expect(a.status).toBe(202);
    expect(a.text).toBe('');
  });

  it('answers a body that is not JSON with HTTP 400 and JSON-RPC -32700 as JSON, never HTML', async () => {
    const a = await rpc(at(), '{"jsonrpc": "2.0", "id": 1, "method": ', { accept: 'text/html' });
    expect(a.status).toBe(400);
    expect(a.contentType).toMatch(/^application\/json/);
    expect(a.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('answers an unknown method with -32601 and an unknown tool with -32602', async () => {
    expect((await rpc(at(), request(2, 'tools/explode'))).body).toMatchObject({ id: 2, error: { code: -32601 } });
    const unknown = await rpc(at(), request(3, 'tools/call', { name: 'no_such_tool', arguments: {} }));
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ id: 3, error: { code: -32602, message: expect.stringContaining('no_such_tool') } });
  });

  it('answers a bearer that does not verify with HTTP 401 and -32001, single and batch', async () => {
    const single = await rpc(at(), request(4, 'tools/list'), BAD_BEARER);
    expect(single.status).toBe(401);
    expect(single.contentType).toMatch(/^application\/json/);
    expect(single.body).toMatchObject({ id: 4, error: { code: -32001 } });
    const batch = await rpc(at(), [request(5, 'tools/list'), notification('notifications/initialized'), request(6, 'ping')], BAD_BEARER);
    expect(batch.status).toBe(401);
    expect((batch.body as RpcError[]).map((x) => [x.id, x.error.code])).toEqual([
      [5, -32001],
      [6, -32001],
    ]);
  });

  it("refuses a browser Origin outside the allowlist with HTTP 403 and -32600, and serves the deck's own", async () => {
    const foreign = await rpc(at(), request(9, 'tools/list'), { origin: 'https://elsewhere.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.contentType).toMatch(/^application\/json/);
    expect(foreign.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    // The Origin is refused before the body is read: a broken body from a foreign page is still a 403.
    expect((await rpc(at(), '{', { origin: 'https://elsewhere.example' })).status).toBe(403);
    const own = await rpc(at(), request(10, 'tools/list'), { origin: new URL(deck.url).origin });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: 10, result: { tools: expect.any(Array) } });
  });
});

describe('the Origin allowlist from DECK_ORIGINS', () => {
  it('serves a listed Origin and refuses any other, the deck\'s own included', async () => {
    const configured = await testDeck({ DECK_ORIGINS: 'https://app.example, https://desk.example' });
    const at = `${configured.url}/mcp`;
    for (const origin of ['https://app.example', 'https://desk.example']) expect((await rpc(at, request(1, 'ping'), { origin })).status).toBe(200);
    for (const origin of [new URL(configured.url).origin, 'https://app.example.evil']) {
      const a = await rpc(at, request(1, 'ping'), { origin });
      expect(a.status).toBe(403);
      expect(a.body).toMatchObject({ error: { code: -32600 } });
    }
    await configured.stop();
  });
});

describe('GET on the MCP endpoints', () => {
  it.each(MCP_PATHS)('GET %s names the endpoint, its transport, its auth rule and its tools', async (path) => {
    const res = await fetch(`${deck.url}${path}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ name: expect.any(String), endpoint: `${deck.url}${path}`, join_url: `${deck.url}/join` });
    expect(body.transport).toMatch(/stateless/);
    expect(body.auth).toMatch(/Bearer/);
    expect(body.tools).toEqual(expect.arrayContaining(['catalogue', 'plans', 'account']));
  });

  it.each(MCP_PATHS)('GET %s asking only for an event stream answers 405', async (path) => {
    const res = await fetch(`${deck.url}${path}`, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('answers an unknown seller 404 with the seller ids, on GET and on POST', async () => {
    const get = await fetch(`${deck.url}/mcp/nobody`);
    expect(get.status).toBe(404);
    expect(await get.json()).toMatchObject({ sellers: [...SELLER_IDS] });
    const post = await rpc(`${deck.url}/mcp/nobody`, request(1, 'tools/list'));
    expect(post.status).toBe(404);
    expect(post.body).toMatchObject({ sellers: [...SELLER_IDS] });
    // The seller is looked up before the body is read.
    expect((await rpc(`${deck.url}/mcp/nobody`, 'not json')).status).toBe(404);
  });
});

describe('a keyless call of a gated tool, on the wire', () => {
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'account', arguments: {} } };
  const expectJoinError = (body: unknown, id: number) => {
    const e = body as RpcError;
    expect(e).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32001, data: { next: { step: 'join', url: `${deck.url}/join` } } } });
    expect(e.error.message).toMatch(/^account needs a key\. Open /);
    expect(e.error.data!.next!.message).toContain(`POST ${deck.url}/login`);
  };

  it('2025 era: HTTP 401 with JSON-RPC -32001 whose data.next names the join step', async () => {
    const a = await rpc(`${deck.url}/mcp`, call, { 'mcp-protocol-version': '2025-06-18' });
    expect(a.status).toBe(401);
    expectJoinError(a.body, 1);
  });

  it('2025 era, in a batch: each call answered in its place with HTTP 200, the challenge header beside', async () => {
    const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
    const res = await fetch(`${deck.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify([call, ping]) });
    expect(res.status).toBe(200);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${deck.url}/.well-known/oauth-protected-resource/mcp"`);
    const [joined, pong] = (await res.json()) as unknown[];
    expectJoinError(joined, 1);
    expect(pong).toMatchObject({ id: 2, result: {} });
  });

  /** A 2026-07-28 request: the version, the client's capabilities and its name ride in _meta and in headers. */
  const modern = (capabilities: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    rpc(
      `${deck.url}/mcp`,
      {
        ...call,
        params: {
          ...call.params,
          ...extra,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'wire', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': capabilities,
          },
        },
      },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'account' },
    );

  it('2026-07-28 with URL elicitation: input_required with one elicitation/create in URL mode; the retry ends with -32001', async () => {
    const first = await modern({ elicitation: { url: {} } });
    expect(first.status).toBe(200);
    const { result } = first.body as { result: { resultType: string; inputRequests: Record<string, unknown>; requestState: string } };
    expect(result.resultType).toBe('input_required');
    expect(Object.keys(result.inputRequests)).toHaveLength(1);
    expect(Object.values(result.inputRequests)[0]).toEqual({
      method: 'elicitation/create',
      params: { mode: 'url', url: `${deck.url}/join`, message: expect.stringMatching(/^account needs a key\. Open /) },
    });
    const [id] = Object.keys(result.inputRequests);
    const retry = await modern({ elicitation: { url: {} } }, { inputResponses: { [id!]: { action: 'accept' } }, requestState: result.requestState });
    expect(retry.status).toBe(401);
    expectJoinError(retry.body, 1);
  });

  it('2026-07-28 without URL elicitation: HTTP 401 with -32001 whose data.next names the join step', async () => {
    for (const capabilities of [{}, { elicitation: {} }]) {
      const a = await modern(capabilities);
      expect(a.status).toBe(401);
      expectJoinError(a.body, 1);
    }
  });
});
