import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOW_TO_SIGN_IN } from '../core/errors.js';

const SIGN_IN_FIRST = `sign in first: ${HOW_TO_SIGN_IN}`;
import { REGISTRY } from '../tools/registry.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { MCP_PATHS, type RpcError } from './support/mcp.js';

let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  deck = await testDeck();
  me = await signedIn(deck.url, 'errant');
});
afterAll(() => deck.stop());

const jsonRoutes = REGISTRY.filter((t) => t.rest?.method === 'POST' && t.rest.body !== 'none').map((t) => t.rest!.path);

describe('one error form for every refusal', () => {
  it.each(jsonRoutes)('POST %s answers 400 not_json for a body that is not JSON', async (path) => {
    const res = await call(`${deck.url}${path}`, { raw: '{"broken":', headers: me.bearer });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body).toMatchObject({ ok: false, error: 'not_json' });
    expect(typeof res.body.message).toBe('string');
  });

  it.each(jsonRoutes)('POST %s answers 400 for a JSON body that is not an object', async (path) => {
    const res = await call(`${deck.url}${path}`, { raw: '[1,2]', headers: me.bearer });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('not_json');
  });

  it('every session route answers 401 with the sign-in message', async () => {
    const sessionRoutes = REGISTRY.filter((t) => t.rest && t.access === 'session');
    expect(sessionRoutes.length).toBeGreaterThan(5);
    for (const t of sessionRoutes) {
      const res = await call(`${deck.url}${t.rest!.path}`, { method: t.rest!.method, ...(t.rest!.method === 'POST' ? { body: {} } : {}) });
      expect(res.status, t.name).toBe(401);
      expect(res.body, t.name).toEqual({ ok: false, error: 'unauthorized', message: SIGN_IN_FIRST });
    }
  });

  it('an unknown route is a JSON 404', async () => {
    const res = await call(`${deck.url}/nowhere`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ ok: false, error: 'not_found' });
  });

  it('a body over the cap is 413 in the same form', async () => {
    const res = await call(`${deck.url}/me/marks`, { raw: JSON.stringify({ note: 'x'.repeat(1_100_000) }), headers: me.bearer });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ ok: false, error: 'too_large' });
  });
});

/** A POST whose body is plain JSON while its content-encoding says otherwise. */
const falselyEncoded = (url: string, encoding: string, headers: Record<string, string> = {}) =>
  call(url, { raw: '{"key":"x"}', headers: { 'content-encoding': encoding, accept: 'application/json, text/event-stream', ...headers } });

describe('a body that is not the encoding its content-encoding claims', () => {
  it.each(jsonRoutes)('POST %s answers 400 bad_encoding naming content-encoding, anonymous and signed in', async (path) => {
    for (const headers of [{}, me.bearer]) {
      const res = await falselyEncoded(`${deck.url}${path}`, 'gzip', headers);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({ ok: false, error: 'bad_encoding', message: 'the body does not decode as content-encoding gzip', field: 'content-encoding' });
    }
  });

  it.each(MCP_PATHS)('POST %s answers HTTP 400 with JSON-RPC -32700, anonymous and signed in', async (path) => {
    for (const headers of [{}, me.bearer]) {
      const res = await falselyEncoded(`${deck.url}${path}`, 'gzip', headers);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/content-encoding gzip/) } });
    }
  });

  it('answers deflate and br that are not either the same way, REST and MCP', async () => {
    for (const encoding of ['deflate', 'br']) {
      const rest = await falselyEncoded(`${deck.url}/login`, encoding);
      expect(rest.status, encoding).toBe(400);
      expect(rest.body, encoding).toMatchObject({ error: 'bad_encoding', field: 'content-encoding' });
      const mcp = await falselyEncoded(`${deck.url}/mcp`, encoding);
      expect(mcp.status, encoding).toBe(400);
      expect((mcp.body as RpcError).error.code, encoding).toBe(-32700);
    }
  });

  it('answers 415 naming content-encoding for an encoding the deck does not read, REST and MCP', async () => {
    const rest = await falselyEncoded(`${deck.url}/login`, 'compress');
    expect(rest.status).toBe(415);
    expect(rest.body).toMatchObject({ ok: false, error: 'unsupported_encoding', field: 'content-encoding' });
    expect(rest.body.message).toMatch(/compress/);
    const mcp = await falselyEncoded(`${deck.url}/mcp`, 'compress');
    expect(mcp.status).toBe(415);
    expect(mcp.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringMatching(/compress/) } });
  });

  it('still reads a body that is the gzip, deflate or br it claims', async () => {
    const login = JSON.stringify({ key: 'deck_live_nobody' });
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const codecs = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };
    for (const [encoding, encode] of Object.entries(codecs)) {
      const rest = await fetch(`${deck.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': encoding }, body: encode(login) });
      expect(rest.status, encoding).toBe(401);
      expect((await rest.json()).error, encoding).toBe('key_refused');
      const mcp = await fetch(`${deck.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding, accept: 'application/json, text/event-stream' },
        body: encode(list),
      });
      expect(mcp.status, encoding).toBe(200);
      expect((await mcp.json()).result.tools.length, encoding).toBeGreaterThan(0);
    }
  });
});

/** Content types whose parameter is not name=value: a charset with no value, or none at all. */
const MALFORMED_TYPES = ['application/json; charset', 'application/json; charset=', 'application/json; charset="utf-8'];

/** A POST of JSON under a malformed content-type, as sent (a stated length) and gzipped (read by the parser). */
const malformed = (url: string, type: string, gzip: boolean, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': type, accept: 'application/json, text/event-stream', ...(gzip ? { 'content-encoding': 'gzip' } : {}), ...headers },
    body: gzip ? gzipSync('{"key":"x"}') : '{"key":"x"}',
  });

describe('a content-type whose parameter is malformed', () => {
  it.each(jsonRoutes)('POST %s answers 400 bad_content_type naming content-type, anonymous and signed in', async (path) => {
    for (const type of MALFORMED_TYPES) {
      for (const gzip of [false, true]) {
        for (const headers of [{}, me.bearer]) {
          const res = await malformed(`${deck.url}${path}`, type, gzip, headers);
          const what = JSON.stringify({ type, gzip, signedIn: headers !== me.bearer });
          expect(res.status, what).toBe(400);
          expect(res.headers.get('content-type'), what).toMatch(/^application\/json/);
          expect(await res.json(), what).toMatchObject({ ok: false, error: 'bad_content_type', field: 'content-type' });
        }
      }
    }
  });

  it.each(MCP_PATHS)('POST %s answers HTTP 400 with JSON-RPC -32600 naming content-type', async (path) => {
    for (const type of MALFORMED_TYPES) {
      for (const gzip of [false, true]) {
        const res = await malformed(`${deck.url}${path}`, type, gzip);
        expect(res.status, type).toBe(400);
        expect(await res.json(), type).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/content-type/) } });
      }
    }
  });

  it('still reads JSON whose content-type is well formed, with or without parameters', async () => {
    for (const type of ['application/json;charset="utf-8"', 'application/json; charset=UTF-8', 'application/json;', 'application/json ; charset=utf-8']) {
      const res = await fetch(`${deck.url}/login`, { method: 'POST', headers: { 'content-type': type }, body: '{"key":"deck_live_nobody"}' });
      expect(res.status, type).toBe(401);
      expect((await res.json()).error, type).toBe('key_refused');
    }
  });
});

describe('a path with a bad percent-escape', () => {
  it('answers 400 bad_path naming the path on every kind of route, and never echoes what the path carried', async () => {
    const paths: [string, string][] = [
      ['GET', '/skills/%zz'],
      ['GET', `/skills/%zz${me.key}`],
      ['GET', `/skills/%${me.session}`],
      ['GET', '/cards/%E0%A4%A'],
      ['GET', '/plates/%zz.png'],
      ['GET', '/mcp/%zz'],
      ['POST', '/mcp/%zz'],
      ['GET', '/studio/%'],
      ['DELETE', '/me/marks%zz'],
    ];
    for (const [method, path] of paths) {
      const res = await fetch(`${deck.url}${path}`, { method, headers: me.bearer });
      const text = await res.text();
      expect(res.status, path).toBe(400);
      expect(JSON.parse(text), path).toEqual({ ok: false, error: 'bad_path', message: 'the path has a bad percent-escape: % must be followed by two hex digits', field: 'path' });
      expect(text).not.toContain(me.key.slice(10));
      expect(text).not.toContain(me.session);
    }
  });

  it('still serves paths whose escapes are good', async () => {
    const res = await call(`${deck.url}/skills/%62acktest`, { headers: me.bearer });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe('backtest');
  });
});

describe('a studio strategy named like a member of every plain object', () => {
  it("reads and moves a strategy named constructor as any other, once the principal's record exists", async () => {
    const mover = await signedIn(deck.url, 'proto_mover');
    const words = { action: 'words', text: 'Buy BTC when the 9 EMA crosses above the 21 EMA.' };
    expect((await call(`${deck.url}/studio/state`, { body: words, headers: mover.bearer })).status).toBe(200);
    const blank = await call(`${deck.url}/studio/state?strategy=constructor`, { headers: mover.bearer });
    expect(blank.status).toBe(200);
    expect(blank.body.record).toMatchObject({ strategy: 'constructor', state: 'blank', rev: 0 });
    const moved = await call(`${deck.url}/studio/state`, { body: { ...words, strategy: 'constructor' }, headers: mover.bearer });
    expect(moved.status).toBe(200);
    expect(moved.body.record).toMatchObject({ strategy: 'constructor', state: 'worded', rev: 1 });
    const read = await call(`${deck.url}/studio/state?strategy=constructor`, { headers: mover.bearer });
    expect(read.body.record).toMatchObject({ strategy: 'constructor', state: 'worded', words: words.text });
    expect((await call(`${deck.url}/studio/state`, { headers: mover.bearer })).body.record).toMatchObject({ strategy: 'main', state: 'worded' });
  });
});
