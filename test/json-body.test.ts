import express, { type ErrorRequestHandler } from 'express';
import fc from 'fast-check';
import { request, type Server } from 'node:http';
import { connect, createServer, type AddressInfo } from 'node:net';
import { stat } from 'node:fs';
import { once } from 'node:events';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeckError } from '../core/errors.js';
import { WorkPool } from '../core/pool/pool.js';
import { ownsItsMemory } from '../core/pool/own-memory.js';
import { jsonBody, parsedOnPool, type BodyOffload } from '../rest/json-body.js';
import { oddValue } from './fuzz/values.js';

// The deck's JSON body reader reads the common case itself and hands the rest to body-parser: whatever is sent with a
// well-formed content-type, the body it reads (or the failure it reports, by status and type, which the refusals are
// chosen by) is body-parser's. A malformed content-type it refuses itself.

const LIMIT = 2_000;
/** Bounds no body within the limit can pass, so the deck's reader is compared with body-parser alone. */
const UNBOUNDED = { depth: LIMIT, entries: LIMIT, string: LIMIT };
const BOUNDS = { depth: 3, entries: 5, string: 10 };

let server: Server;
let base: string;
/** The failures each reader reported, by route: a client that went away never reads its answer. */
const reported: Record<string, unknown[]> = { '/deck': [], '/body-parser': [], '/bounded': [], '/pooled': [], '/refusing': [], '/gathered': [], '/long': [] };
/**
 * A work pool of one thread, where /pooled parses every body (from its first byte) off the event loop, as the deck's
 * routes do (a body gathered into memory of its own moved to the thread).
 */
const pool = new WorkPool({ threads: 1, lane: 100, held: 100 });
const pooled: BodyOffload = { ...parsedOnPool(pool), from: 0, entries: LIMIT };
/** Whether each body /gathered handed to the pool was in memory of its own (so it moved to the thread). */
const handed: boolean[] = [];
/** From 1 KB on, bodies go to the pool, and the reader keeps one whole from then on. */
const gathered: BodyOffload = { ...parsedOnPool(pool), from: 1_024, parse: (bytes, req) => (handed.push(ownsItsMemory(bytes)), parsedOnPool(pool).parse(bytes, req)) };
/** Bodies of some megabytes, as an image's: parsed on the pool from 128 KB, as the deck's routes are. */
const LONG_LIMIT = 8 * 1024 * 1024;
/** A place that refuses every body of at most 4 entries (keys and items) it is handed, as a full queue would. */
const refusing: BodyOffload = { from: 0, entries: 4, parse: () => Promise.reject(new DeckError(429, 'queue_full', 'the work queue is full')) };

beforeAll(async () => {
  const app = express();
  const answer = (req: express.Request, res: express.Response) => void res.json({ body: req.body === undefined ? '(none)' : (req.body as unknown) });
  const failed: ErrorRequestHandler = (err: { type?: unknown; status?: unknown }, req, res, _next) => {
    reported[req.path]!.push({ type: err.type ?? null, status: err.status ?? null });
    res.json({ failed: { type: err.type ?? null, status: err.status ?? null } });
  };
  app.post('/deck', jsonBody(LIMIT, UNBOUNDED), answer, failed);
  app.post('/bounded', jsonBody(LIMIT, BOUNDS), answer, failed);
  app.post('/pooled', jsonBody(LIMIT, UNBOUNDED, pooled), answer, failed);
  app.post('/refusing', jsonBody(LIMIT, UNBOUNDED, refusing), answer, failed);
  app.post('/gathered', jsonBody(LIMIT, UNBOUNDED, gathered), answer, failed);
  app.post('/long', jsonBody(LONG_LIMIT, { depth: 8, entries: 64, string: LONG_LIMIT }, parsedOnPool(pool)), answer, failed);
  app.post('/body-parser', express.json({ type: () => true, limit: LIMIT, strict: false }), answer, failed);
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await pool.close();
});

interface Sent {
  type: string | undefined;
  encoding: 'none' | 'identity' | 'gzip' | 'gzip-lie' | 'br';
  chunked: boolean;
  bytes: Buffer;
}

/** POSTs the bytes as told, over a fresh connection, and answers the JSON it got back. */
function post(path: string, s: Sent): Promise<unknown> {
  const body = s.encoding === 'gzip' ? gzipSync(s.bytes) : s.bytes;
  const headers: Record<string, string> = {};
  if (s.type !== undefined) headers['content-type'] = s.type;
  if (s.encoding !== 'none') headers['content-encoding'] = s.encoding === 'gzip-lie' ? 'gzip' : s.encoding;
  if (!s.chunked) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve(JSON.parse(text) as unknown));
    });
    req.on('error', reject);
    // Chunked: the body in two writes, split inside a multi-byte character when there is one.
    if (s.chunked && body.length > 1) req.write(body.subarray(0, Math.ceil(body.length / 2)));
    req.end(s.chunked && body.length > 1 ? body.subarray(Math.ceil(body.length / 2)) : body);
  });
}

const text: fc.Arbitrary<string> = fc.oneof(
  oddValue.map((v) => JSON.stringify(v) ?? 'null'),
  fc.constantFrom('', ' ', '{', '[]', '{"a":1}', ' {"a": "é"} ', 'not json', '\uFEFF{"bom":true}', '\uFEFF', '{"a":"😀"}', 'null', '"x"', '1e309'),
  fc.integer({ min: LIMIT - 20, max: LIMIT + 20 }).map((n) => JSON.stringify({ pad: 'a'.repeat(n) })),
);

const bytes: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 6, arbitrary: text.map((t) => Buffer.from(t, 'utf8')) },
  { weight: 1, arbitrary: fc.constantFrom(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), Buffer.from('{"a":"é"}', 'latin1'), Buffer.from('{"a":1}', 'utf16le')) },
);

const sent: fc.Arbitrary<Sent> = fc.record({
  type: fc.constantFrom(
    undefined,
    'application/json',
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON; Charset=UTF-8',
    'application/json;charset=utf-8',
    'application/json; charset="utf-8"',
    'application/json; charset=latin1',
    'application/json; charset=utf-16le',
    'application/vnd.api+json',
    'text/plain',
  ),
  encoding: fc.constantFrom('none', 'none', 'none', 'identity', 'gzip', 'gzip-lie', 'br'),
  chunked: fc.boolean(),
  bytes,
});

describe('jsonBody', () => {
  it("reads every body as body-parser does: the same value, or the same failure's status and type", async () => {
    await fc.assert(
      fc.asyncProperty(sent, async (s) => {
        const [deck, bodyParser] = [await post('/deck', s), await post('/body-parser', s)];
        expect(deck, JSON.stringify({ ...s, bytes: s.bytes.toString('base64').slice(0, 80) })).toEqual(bodyParser);
      }),
      { seed: 16, numRuns: 400 },
    );
  }, 120_000);

  it('reads every body it hands to the work pool as body-parser does, and answers the pool\'s own refusal as it is', async () => {
    await fc.assert(
      fc.asyncProperty(sent, async (s) => {
        expect(await post('/pooled', s), JSON.stringify({ ...s, bytes: s.bytes.toString('base64').slice(0, 80) })).toEqual(await post('/body-parser', s));
      }),
      { seed: 17, numRuns: 150 },
    );
    const refused = await post('/refusing', { type: 'application/json', encoding: 'none', chunked: false, bytes: Buffer.from('{"a":1,"b":[2,3]}') });
    expect(refused).toEqual({ failed: { type: null, status: 429 } });
    // A body of more entries than the place takes is parsed where it arrived.
    const many = await post('/refusing', { type: 'application/json', encoding: 'none', chunked: false, bytes: Buffer.from('{"a":1,"b":[2,3,4]}') });
    expect(many).toEqual({ body: { a: 1, b: [2, 3, 4] } });
  }, 120_000);

  it('hands the pool a body of a stated length whole, in memory of its own, however its writes split it', async () => {
    const value = { pad: 'é'.repeat(700), list: [1, 2, 'x'] };
    const bytes = Buffer.from(JSON.stringify(value));
    for (const step of [bytes.length, 1_000, 100, 7]) {
      handed.length = 0;
      const answer = await new Promise<unknown>((resolve, reject) => {
        const req = request(`${base}/gathered`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(bytes.length) }, agent: false }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve(JSON.parse(text) as unknown));
        });
        req.on('error', reject);
        void (async () => {
          for (let at = 0; at < bytes.length; at += step) {
            req.write(bytes.subarray(at, at + step));
            await new Promise((r) => setImmediate(r));
          }
          req.end();
        })();
      });
      expect(answer, `writes of ${step}`).toEqual({ body: value });
      expect(handed, `writes of ${step}`).toEqual([true]);
    }
  });

  it('takes back from the pool a body of some megabytes with its long strings, as JSON.parse reads it', async () => {
    // Light work runs on the loop until a thread has answered: wait for one.
    for (let i = 0; i < 200 && !pool.jobsRun().some((r) => r.kind === 'parsing' && r.where === 'thread'); i++) {
      await post('/pooled', { type: 'application/json', encoding: 'none', chunked: false, bytes: Buffer.from('{"warm":1}') });
      await new Promise((r) => setTimeout(r, 10));
    }
    const before = pool.jobsRun().find((r) => r.kind === 'parsing' && r.where === 'thread')?.n ?? 0;
    const body = { data: `data:image/png;base64,${'QUJD'.repeat(400_000)}`, note: 'short', wide: 'é'.repeat(1_100_000), list: ['x', 'A'.repeat(1_200_000)] };
    const text = JSON.stringify(body);
    const answer = await post('/long', { type: 'application/json', encoding: 'none', chunked: false, bytes: Buffer.from(text) });
    expect(answer).toEqual({ body: JSON.parse(text) });
    expect(pool.jobsRun().find((r) => r.kind === 'parsing' && r.where === 'thread')?.n).toBe(before + 1);
  });

  it("lets the loop read what arrived while a body came back from the pool before the route's own work starts", async () => {
    // The pool's answer is heard in a poll callback, as a thread's is; input that arrives meanwhile (here, bytes sent
    // to another server of this process) is read in the next poll, which the route's work must wait for.
    const order: string[] = [];
    const other = createServer((socket) => socket.on('data', () => void order.push('input')));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const client = connect((other.address() as AddressInfo).port, '127.0.0.1');
    await once(client, 'connect');
    const polled: BodyOffload = {
      from: 0,
      entries: LIMIT,
      parse: (bytes) =>
        new Promise((resolve) =>
          stat('.', () => {
            client.write('x');
            resolve(JSON.parse(bytes.toString()) as unknown);
          }),
        ),
    };
    const app = express();
    app.post('/polled', jsonBody(LIMIT, UNBOUNDED, polled), (req, res) => {
      order.push('route');
      res.json({ body: req.body as unknown });
    });
    const routes = app.listen(0, '127.0.0.1');
    await once(routes, 'listening');
    try {
      const answer = await fetch(`http://127.0.0.1:${(routes.address() as AddressInfo).port}/polled`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
      expect(await answer.json()).toEqual({ body: { a: 1 } });
      expect(order).toEqual(['input', 'route']);
    } finally {
      client.destroy();
      await new Promise((resolve) => routes.close(resolve));
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('reads the bodies that differ in one byte as body-parser does, however they are sent', async () => {
    const texts = ['', '\uFEFF{"bom":true}', '\uFEFF', '{"a":"é😀"}', ' 7 ', 'nul', '[1,]'];
    for (const t of texts) {
      for (const type of [undefined, 'application/json', 'application/json; charset=UTF-8']) {
        for (const chunked of [false, true]) {
          const s: Sent = { type, encoding: 'none', chunked, bytes: Buffer.from(t, 'utf8') };
          expect(await post('/deck', s), JSON.stringify({ t, type, chunked })).toEqual(await post('/body-parser', s));
        }
      }
    }
  });

  it('refuses a content-type whose parameter is malformed, however the body is sent, before body-parser reads it', async () => {
    for (const type of ['application/json; charset', 'application/json; charset=', 'application/json; charset="utf-8', 'application/json extra', 'json']) {
      for (const encoding of ['none', 'gzip'] as const) {
        for (const chunked of [false, true]) {
          const s: Sent = { type, encoding, chunked, bytes: Buffer.from('{"a":1}') };
          expect(await post('/deck', s), JSON.stringify({ type, encoding, chunked })).toEqual({ failed: { type: 'content-type.malformed', status: 400 } });
        }
      }
    }
  });

  it('refuses a body beyond its bounds as entity.too.complex (413) before parsing it, however it is sent', async () => {
    const beyond = ['[[[[1]]]]', '{"a":{"b":{"c":{}}}}', '{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}', '[1,2,3,4,5,6]', '[[],[],[],[],[],[1]]', '{"a":"01234567890"}', '{"01234567890":1}', '"a\\"bcdefghijk"'];
    const within = ['[[[1]]]', '{"a":1,"b":2,"c":3,"d":4,"e":5}', '[1,2,3,4,5]', '[[],[],[]]', '{"a":"0123456789"}', '"a\\\\"', '{"a":"\\"}"}', ' [ ] ', ''];
    for (const encoding of ['none', 'gzip'] as const) {
      for (const chunked of [false, true]) {
        for (const t of beyond) {
          const s: Sent = { type: 'application/json', encoding, chunked, bytes: Buffer.from(t) };
          expect(await post('/bounded', s), JSON.stringify({ t, encoding, chunked })).toEqual({ failed: { type: 'entity.too.complex', status: 413 } });
        }
        for (const t of within) {
          const s: Sent = { type: 'application/json', encoding, chunked, bytes: Buffer.from(t) };
          expect(await post('/bounded', s), JSON.stringify({ t, encoding, chunked })).toEqual({ body: t.trim() ? JSON.parse(t) : {} });
        }
      }
    }
  });

  it('reports a body cut short by a client that went away as body-parser does: request.aborted', async () => {
    for (const path of ['/deck', '/body-parser']) {
      reported[path]!.length = 0;
      const req = request(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '100' }, agent: false });
      req.on('error', () => {});
      req.write('{"a":');
      await new Promise((resolve) => setTimeout(resolve, 50));
      req.destroy();
      for (let i = 0; i < 100 && reported[path]!.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(reported['/deck']).toEqual([{ type: 'request.aborted', status: 400 }]);
    expect(reported['/deck']).toEqual(reported['/body-parser']);
  });

  it('reads a body of a stated length within the limit itself, and refuses one over it as entity.too.large', async () => {
    const within = Buffer.from(JSON.stringify({ pad: 'a'.repeat(LIMIT - 20) }));
    expect(await post('/deck', { type: 'application/json', encoding: 'none', chunked: false, bytes: within })).toEqual({ body: { pad: 'a'.repeat(LIMIT - 20) } });
    const over = Buffer.from(JSON.stringify({ pad: 'a'.repeat(LIMIT) }));
    expect(await post('/deck', { type: 'application/json', encoding: 'none', chunked: false, bytes: over })).toEqual({ failed: { type: 'entity.too.large', status: 413 } });
  });
});
