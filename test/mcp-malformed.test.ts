import { gzipSync } from 'node:zlib';
import { CallToolResultSchema, ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDeck, type TestDeck } from './support/deck.js';
import { legacyClient, MODERN_PROTOCOL, modernClient, rpc, type RpcError } from './support/mcp.js';

// Malformed MCP input, on the deck's own /mcp and on a seller's endpoint, in both protocol eras: params that fail a
// method's schema are -32602 naming the field (never -32603 with a schema's raw report), a body that is not JSON-RPC
// is -32600 naming what is wrong, and a body the endpoint cannot read is a JSON-RPC error, never the REST form or 500.
let deck: TestDeck;
beforeAll(async () => {
  deck = await testDeck();
});
afterAll(() => deck.stop());

const PATHS = ['/mcp', '/mcp/candles'] as const;
const request = (method: string, params?: unknown) => ({ jsonrpc: '2.0', id: 7, method, ...(params === undefined ? {} : { params }) });
const INIT = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'malformed', version: '1' } };

/** A 2026-07-28 request: its envelope in _meta, its method (and tool name) in headers. */
const modern = (at: string, method: string, params: Record<string, unknown>) =>
  rpc(
    at,
    request(method, {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL,
        'io.modelcontextprotocol/clientInfo': { name: 'malformed', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    }),
    {
      'mcp-protocol-version': MODERN_PROTOCOL,
      'mcp-method': method,
      ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
    },
  );

/** An -32602 answer whose message names the field in words, with nothing of a schema's raw report. */
function expectInvalidParams(a: { status: number; body: unknown }, words: string) {
  expect(a.status).toBe(200);
  const e = a.body as RpcError;
  expect(e).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602 } });
  expect(e.error.message).toContain(words);
  expect(e.error.message).not.toMatch(/invalid_type|"code"|"path"|\n/);
}

const BAD_CALLS: [string, Record<string, unknown> | undefined, string][] = [
  ['arguments null', { name: 'catalogue', arguments: null }, 'params.arguments: expected an object, got null'],
  ['arguments an array', { name: 'catalogue', arguments: [] }, 'params.arguments: expected an object, got an array'],
  ['arguments a string', { name: 'catalogue', arguments: 'all' }, 'params.arguments: expected an object, got "all"'],
  ['no name', { arguments: {} }, 'params.name: expected a string, but it is missing'],
  ['a name that is a number', { name: 5, arguments: {} }, 'params.name: expected a string, got 5'],
];

describe.each(PATHS)('malformed params on %s', (path) => {
  const at = () => `${deck.url}${path}`;

  it.each(BAD_CALLS)('2025 era, tools/call with %s: -32602 naming the field', async (_, params, words) => {
    expectInvalidParams(await rpc(at(), request('tools/call', params)), words);
  });

  it('2025 era, tools/call without params: -32602 naming params', async () => {
    expectInvalidParams(await rpc(at(), request('tools/call')), 'params: expected an object, but it is missing');
  });

  it('2025 era, a bad initialize: -32602 naming the field', async () => {
    const { protocolVersion: _, ...noVersion } = INIT;
    expectInvalidParams(await rpc(at(), request('initialize', noVersion)), 'params.protocolVersion: expected a string, but it is missing');
    expectInvalidParams(await rpc(at(), request('initialize', { ...INIT, capabilities: 'all' })), 'params.capabilities: expected an object, got "all"');
    expectInvalidParams(await rpc(at(), request('initialize', { ...INIT, clientInfo: { name: 'x' } })), 'params.clientInfo.version: expected a string, but it is missing');
    expectInvalidParams(await rpc(at(), request('initialize')), 'params: expected an object, but it is missing');
  });

  it('2025 era, tools/list with a cursor that is not a string: -32602 naming params.cursor', async () => {
    expectInvalidParams(await rpc(at(), request('tools/list', { cursor: 5 })), 'params.cursor: expected a string, got 5');
  });

  it.each(BAD_CALLS)('2026-07-28, tools/call with %s: -32602 naming the field', async (_, params, words) => {
    expectInvalidParams(await modern(at(), 'tools/call', params!), words);
  });

  it('2026-07-28, tools/list with a cursor that is not a string: -32602 naming params.cursor', async () => {
    expectInvalidParams(await modern(at(), 'tools/list', { cursor: 5 }), 'params.cursor: expected a string, got 5');
  });

  it('a batch answers a malformed call -32602 in its place and the others as usual', async () => {
    const a = await rpc(at(), [request('tools/call', { name: 'catalogue', arguments: null }), { ...request('ping'), id: 8 }]);
    expect(a.status).toBe(200);
    expect(a.body).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'params.arguments: expected an object, got null' } },
      { jsonrpc: '2.0', id: 8, result: {} },
    ]);
  });

  it("the SDK clients of both lines get -32602 naming the field, and the endpoint serves them after", async () => {
    const legacy = await legacyClient(at());
    const modernOne = await modernClient(at());
    try {
      const malformed = { method: 'tools/call', params: { name: 'catalogue', arguments: null } };
      await expect(legacy.request(malformed, CallToolResultSchema)).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('params.arguments: expected an object, got null'),
      });
      await expect(modernOne.request(malformed, CallToolResultSchema)).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('params.arguments: expected an object, got null'),
      });
      const cursor = { method: 'tools/list', params: { cursor: 5 } };
      await expect(legacy.request(cursor, ListToolsResultSchema)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('params.cursor') });
      await expect(modernOne.request(cursor, ListToolsResultSchema)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('params.cursor') });
      expect((await legacy.callTool({ name: 'catalogue', arguments: {} })).isError).toBeFalsy();
      expect((await modernOne.callTool({ name: 'catalogue', arguments: {} })).isError).toBeFalsy();
    } finally {
      await legacy.close();
      await modernOne.close();
    }
  });
});

/** No protocol claim (2025 era), and the 2026-07-28 header. */
const ERAS: Record<string, string>[] = [{}, { 'mcp-protocol-version': MODERN_PROTOCOL }];

describe.each(PATHS)('bodies that are not JSON-RPC on %s', (path) => {
  const at = () => `${deck.url}${path}`;
  const NOT_JSON_RPC: [string, string, string][] = [
    ['a number', '42', 'a JSON-RPC message is an object, not 42'],
    ['null', 'null', 'a JSON-RPC message is an object, not null'],
    ['a string', '"ping"', 'a JSON-RPC message is an object, not "ping"'],
    ['an empty batch', '[]', 'an empty batch'],
    ['jsonrpc 1.0', '{"jsonrpc":"1.0","id":3,"method":"ping"}', 'jsonrpc: expected "2.0", got "1.0"'],
    ['jsonrpc 1.0 and nothing else', '{"jsonrpc":"1.0"}', 'jsonrpc: expected "2.0"'],
    ['no method', '{"jsonrpc":"2.0","id":3}', 'method: expected a string, but it is missing'],
    ['an id that is an object', '{"jsonrpc":"2.0","id":{},"method":"ping"}', 'id: expected a string or a number, got an object'],
    ['params that are a string', '{"jsonrpc":"2.0","id":3,"method":"tools/list","params":"all"}', 'params: expected an object, got "all"'],
  ];

  it.each(NOT_JSON_RPC)('%s: HTTP 400 with -32600 naming what is wrong, in both eras', async (_, body, words) => {
    for (const headers of ERAS) {
      const a = await rpc(at(), body, headers);
      expect(a.status).toBe(400);
      expect(a.contentType).toMatch(/^application\/json/);
      const e = a.body as RpcError;
      expect(e).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
      expect(e.error.message).toContain(words);
    }
  });

  it('a batch answers each member that is not JSON-RPC -32600 in its place', async () => {
    const a = await rpc(at(), `[42, {"jsonrpc":"1.0","id":4,"method":"ping"}, {"jsonrpc":"2.0","id":5,"method":"ping"}]`);
    expect(a.status).toBe(200);
    expect(a.body).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'a JSON-RPC message is an object, not 42' } },
      { jsonrpc: '2.0', id: 4, error: { code: -32600, message: 'jsonrpc: expected "2.0", got "1.0"' } },
      { jsonrpc: '2.0', id: 5, result: {} },
    ]);
  });
});

describe.each(PATHS)('bodies the endpoint cannot read on %s', (path) => {
  const at = () => `${deck.url}${path}`;

  it('a body over the 4 MiB cap: HTTP 413 with -32600 naming the cap, not the REST error form', async () => {
    const a = await rpc(at(), JSON.stringify(request('ping', { pad: 'x'.repeat(4 * 1024 * 1024) })));
    expect(a.status).toBe(413);
    expect(a.contentType).toMatch(/^application\/json/);
    expect(a.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: "the body is over the MCP endpoints' cap of 4 MiB" } });
  });

  it('a body whose content-encoding says gzip but is not: HTTP 400 with -32700, never 500', async () => {
    const a = await rpc(at(), JSON.stringify(request('ping')), { 'content-encoding': 'gzip' });
    expect(a.status).toBe(400);
    expect(a.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringContaining('gzip') } });
    // The same body truly gzipped is read.
    const res = await fetch(at(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify(request('ping'))),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
  });

  it('a content-encoding the deck does not read: HTTP 415 with -32600 naming it', async () => {
    const a = await rpc(at(), JSON.stringify(request('ping')), { 'content-encoding': 'compress' });
    expect(a.status).toBe(415);
    expect(a.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('compress') } });
  });
});
