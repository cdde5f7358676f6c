import fc from 'fast-check';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { excessOfValue, JsonShape, type JsonBounds } from '../core/json-bounds.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { rpc } from './support/mcp.js';
import { deepText, manyKeys, oddValue } from './fuzz/values.js';

// A body's shape is held to its route's bounds before anything walks it: a JSON bomb (many keys, deep nesting, a huge
// string) is refused small and cheap, and a refusal of a body that is merely wrong names its first few problems.

const shapeOf = (text: string, bounds: JsonBounds, chunk = Infinity) => {
  const shape = new JsonShape(bounds);
  const bytes = Buffer.from(text);
  let excess = null;
  for (let at = 0; at < bytes.length && !excess; at += chunk) excess = shape.read(bytes.subarray(at, Math.min(bytes.length, at + chunk)));
  return excess?.bound ?? null;
};

describe('JsonShape', () => {
  const B = { depth: 3, entries: 5, string: 10 };

  it('counts depth, entries (keys and array items) and string bytes, passing exactly at the bound', () => {
    expect(shapeOf('[[[1]]]', B)).toBeNull();
    expect(shapeOf('[[[[1]]]]', B)).toBe('depth');
    expect(shapeOf('{"a":{"b":{"c":1}}}', B)).toBeNull();
    expect(shapeOf('{"a":{"b":{"c":{}}}}', B)).toBe('depth');
    expect(shapeOf('[1,2,3,4,5]', B)).toBeNull();
    expect(shapeOf('[1,2,3,4,5,6]', B)).toBe('entries');
    expect(shapeOf('{"a":1,"b":[1],"c":{"d":1}}', B)).toBeNull();
    expect(shapeOf('{"a":1,"b":[1],"c":{"d":1,"e":2}}', B)).toBe('entries');
    expect(shapeOf('[[],[],[],[],[]]', B)).toBeNull();
    expect(shapeOf('[[],[],[],[],[],[]]', B)).toBe('entries');
    expect(shapeOf('[ ]', B)).toBeNull();
    expect(shapeOf('"0123456789"', B)).toBeNull();
    expect(shapeOf('"01234567890"', B)).toBe('string');
    expect(shapeOf('{"01234567890":1}', B)).toBe('string');
    // Marks inside strings are not marks; escapes are counted as sent, and an escaped quote does not end a string.
    expect(shapeOf('["[[[[,,,,,,:::"]', B)).toBe('string');
    expect(shapeOf('["[[[[,,:"]', B)).toBeNull();
    expect(shapeOf('"\\"\\"\\"\\"\\""', B)).toBeNull();
    expect(shapeOf('"\\"\\"\\"\\"\\"\\""', B)).toBe('string');
    expect(shapeOf('["\\\\",[[[1]]]]', B)).toBe('depth');
    // UTF-8 is counted in bytes: é is two.
    expect(shapeOf('"ééééé"', B)).toBeNull();
    expect(shapeOf('"éééééé"', B)).toBe('string');
  });

  it('answers the same whatever the chunks the bytes arrive in', () => {
    const texts = ['{"a":"x\\"[[[[","b":[1,2,3]}', '["\\\\\\"",{"k":"é\\u00e9"}]', manyKeys(7), deepText(5, true), deepText(3, false), '"a\\\\"'];
    for (const t of texts) {
      const whole = shapeOf(t, B);
      for (const chunk of [1, 2, 3, 7]) expect(shapeOf(t, B, chunk), `${t} in chunks of ${chunk}`).toBe(whole);
    }
  });

  it('agrees with the walk of the parsed value on depth and entries, for any JSON value', () => {
    const wide = { depth: 12, entries: 40, string: Infinity };
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({ maxDepth: 16 }), oddValue), (v) => {
        const text = JSON.stringify(v);
        if (text === undefined) return;
        expect(shapeOf(text, wide, 5)).toBe(excessOfValue(JSON.parse(text), wide)?.bound ?? null);
      }),
      { seed: 16, numRuns: 2_000 },
    );
  });

  it('stops reading at the first bound passed: the rest of a bomb costs nothing more', () => {
    const shape = new JsonShape({ depth: 32, entries: 1_024, string: 65_536 });
    expect(shape.read(Buffer.from(manyKeys(2_000)))?.bound).toBe('entries');
    // Once passed, later bytes are not read at all.
    expect(shape.read(Buffer.from('"'.repeat(10)))?.bound).toBe('entries');
  });
});

let deck: TestDeck;
beforeAll(async () => {
  deck = await testDeck();
});
afterAll(() => deck.stop());

const MCP = { accept: 'application/json, text/event-stream' };
const tooLarge = (body: { error: string; message: string; bounds?: unknown }) => {
  expect(body).toMatchObject({ ok: false, error: 'too_large' });
  expect(body.bounds).toEqual({ depth: 16, entries: 1_024, string: 65_536 });
};

describe('a REST body beyond its route\'s bounds', () => {
  it('is 413 naming the bound, answered small, for many keys, deep nesting and a long string', async () => {
    for (const [raw, said] of [
      [manyKeys(50_000), 'more than 1,024 keys and array items'],
      [deepText(100_000, false), 'nest deeper than 16 levels'],
      [deepText(17, true), 'nest deeper than 16 levels'],
      [JSON.stringify({ name: 'x'.repeat(65_537) }), 'a string is longer than 65,536 bytes'],
    ] as const) {
      const r = await call(`${deck.url}/join`, { raw });
      expect(r.status, said).toBe(413);
      tooLarge(r.body);
      expect(r.body.message).toContain(said);
      expect(JSON.stringify(r.body).length).toBeLessThan(400);
    }
  });

  it('is answered as soon as its bounds are passed, its connection closing: the rest is never read, and the connection goes', async () => {
    // A bomb within the route's size cap (the bounds refuse it after its first bytes) and one whose stated length is past
    // the cap (refused before any): each sends 640 KiB of its body and stops, never ending it. The deck, reading none of
    // the rest, drops the connection a grace after its answer instead of waiting for the body's end.
    const keys = Buffer.from(manyKeys(200_000));
    for (const stated of [900_000, 5_000_000]) {
      const socket = connect(Number(new URL(deck.url).port), '127.0.0.1');
      let answer = '';
      let sent = 0;
      const answered = new Promise<number>((resolve) => socket.on('data', (d: Buffer) => void ((answer += d.toString()), resolve(sent))));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.on('error', () => {});
      socket.write(`POST /join HTTP/1.1\r\nHost: deck\r\nContent-Type: application/json\r\nContent-Length: ${stated}\r\n\r\n`);
      const send = async () => {
        for (let at = 0; at < 640 * 1024 && !socket.destroyed; at += 64 * 1024) {
          socket.write(keys.subarray(at, at + 64 * 1024));
          sent = at + 64 * 1024;
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      const sending = send();
      expect(await answered, String(stated)).toBeLessThanOrEqual(128 * 1024);
      expect(answer, String(stated)).toMatch(/^HTTP\/1.1 413 [^]*\r\nConnection: close\r\n/i);
      await sending;
      const cut = await Promise.race([closed.then(() => 'closed'), new Promise((r) => setTimeout(() => r('still open'), 3_000))]);
      socket.destroy();
      expect(cut, String(stated)).toBe('closed');
    }
  });

  it('takes what is within them: a refusal of 1,000 unknown keys names the first few and counts the rest', async () => {
    const r = await call(`${deck.url}/join`, { raw: manyKeys(1_000) });
    expect(r.status).toBe(422);
    expect(r.body.problems).toEqual([
      { field: 'name', message: expect.any(String) },
      { field: '(body)', message: 'Unrecognized keys: "k0", "k1", "k2", "k3", "k4" and 995 more' },
    ]);
    expect(JSON.stringify(r.body).length).toBeLessThan(1_000);
  });

  it('lists at most ten problems, with how many there were', async () => {
    const { bearer } = await signedIn(deck.url, 'many-problems');
    const r = await call(`${deck.url}/plates`, { body: { market: 7, tf: 7, from: true, to: true, indicators: Array.from({ length: 8 }, () => 7) }, headers: bearer });
    expect(r.status).toBe(422);
    expect(r.body.problems).toHaveLength(10);
    expect(r.body.problems_total).toBe(12);
    expect(r.body.message).toMatch(/; and 2 more$/);
  });
});

describe('an MCP body beyond its bounds', () => {
  it('is HTTP 413 with -32600 for a body beyond the endpoint\'s bounds, answered small', async () => {
    for (const body of [
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"catalogue","arguments":${manyKeys(200_000)}}}`,
      manyKeys(200_000),
      deepText(1_000_000, false),
    ]) {
      const res = await fetch(`${deck.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', ...MCP }, body });
      const text = await res.text();
      expect(res.status).toBe(413);
      expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('the body holds more than this route reads') } });
      expect(text.length).toBeLessThan(400);
    }
  });

  it('refuses a tool\'s arguments beyond the tool\'s bounds with -32602 before any schema walks them', async () => {
    const r = await rpc(`${deck.url}/mcp`, { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'catalogue', arguments: JSON.parse(manyKeys(2_000)) } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: 4, error: { code: -32602, message: 'params.arguments: it holds more than 1,024 keys and array items, more than catalogue reads' } });
    const deep = await rpc(`${deck.url}/mcp`, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'catalogue', arguments: JSON.parse(deepText(20, true)) } });
    expect(deep.body).toMatchObject({ id: 5, error: { code: -32602, message: expect.stringContaining('nest deeper than 16 levels') } });
  });

  it('names the first few of many unknown keys within the bounds, and how many more there were', async () => {
    const r = await rpc(`${deck.url}/mcp`, { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'catalogue', arguments: JSON.parse(manyKeys(1_000)) } });
    const text = (r.body as { result: { isError: boolean; content: { text: string }[] } }).result.content[0]!.text;
    expect(JSON.parse(text)).toMatchObject({ error: 'bad_input', status: 422, problems: [{ field: '(body)', message: 'Unrecognized keys: "k0", "k1", "k2", "k3", "k4" and 995 more' }] });
    const envelope = await rpc(`${deck.url}/mcp`, JSON.parse(manyKeys(1_000)));
    expect(JSON.stringify(envelope.body).length).toBeLessThan(1_000);
  });
});
