import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tuplesFromBars } from '../engine/bars.js';
import { startVenue, sampleRows, type VenueFixture } from './fixtures/venue.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { rpc, type RpcError } from './support/mcp.js';
import { stitchedMonth } from './support/tape-file.js';

// The bounds of a JSON-RPC batch on the deck's own /mcp and on a seller's endpoint: at most 100 messages (more is
// refused whole, before anything runs), answers bounded in size (calls that would start past the cap are not run),
// and calls started one per turn of the event loop, so other requests are answered while a batch runs.
/** BTC as a month of minutes stitched from the shipped days: an answer of 20,000 bars needs two weeks of them in a row. */
const btc = tuplesFromBars(stitchedMonth('BTC-1m'));
let venue: VenueFixture;
let deck: TestDeck;
let bearer: Record<string, string>;

beforeAll(async () => {
  venue = await startVenue({ 'BTC/1m': btc, 'ETH/1m': sampleRows('ETH-1m'), 'ES/1m': sampleRows('ES-1m') });
  deck = await testDeck({ DECK_TAPE_URL: venue.url });
  bearer = (await signedIn(deck.url, 'batcher')).bearer;
});
afterAll(async () => {
  await deck.stop();
  await venue.close();
});

const PATHS = ['/mcp', '/mcp/candles'] as const;
const DAY = 86_400;
const MONTH = btc[0]![0];
/** 3 September 2017, the first of the shipped ETH days. */
const ETH_DAY = Date.UTC(2017, 8, 3) / 1000;
/** Tuesday 8 October 2013 13:30 UTC, the cash open, in the shipped ES week. */
const ES_OPEN = Date.UTC(2013, 9, 8, 13, 30) / 1000;

const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });
const tapeCall = (id: number, market: string, from: number, bars: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'tape', arguments: { market, tf: '1m', from, to: from + bars * 60, limit: bars } },
});
const venueAsked = () => [...venue.hits.values()].reduce((a, b) => a + b, 0);

type Answer = { id: number; result?: { isError?: boolean; structuredContent: { candles: unknown[] } } } & Partial<RpcError>;

describe.each(PATHS.map((path, i) => [path, i] as const))('batches on %s', (path, i) => {
  const at = () => `${deck.url}${path}`;

  it('answers a batch of 100 messages whole and in order', async () => {
    const a = await rpc(at(), Array.from({ length: 100 }, (_, id) => ping(id)));
    expect(a.status).toBe(200);
    expect(a.contentType).toMatch(/^application\/json/);
    expect((a.body as Answer[]).map((x) => x.id)).toEqual(Array.from({ length: 100 }, (_, id) => id));
    expect((a.body as Answer[]).every((x) => x.result !== undefined)).toBe(true);
  });

  it('refuses a batch of 101 with HTTP 413 and -32600 naming the limit, running none of it', async () => {
    const asked = venueAsked();
    const batch = Array.from({ length: 101 }, (_, id) => tapeCall(id, 'ETH', ETH_DAY + i * DAY + id * 600, 10));
    const a = await rpc(at(), batch, bearer);
    expect(a.status).toBe(413);
    expect(a.contentType).toMatch(/^application\/json/);
    expect(a.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'a batch holds at most 100 messages; this one holds 101: send them in several requests' },
    });
    expect(venueAsked()).toBe(asked);
  });

  it('refuses an anonymous batch of 75,000 tools/list (3.8 MB, under the body cap) with 413 before parsing it, and goes on serving', async () => {
    const body = JSON.stringify(Array.from({ length: 75_000 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list' })));
    expect(body.length).toBeLessThan(4 * 1024 * 1024);
    const a = await rpc(at(), body);
    expect(a.status).toBe(413);
    // It holds more entries than the endpoint reads (the largest tool input and a full batch's envelopes).
    expect((a.body as RpcError).error).toEqual({ code: -32600, message: 'the body holds more than this route reads: it holds more than 17,184 keys and array items' });
    expect((await rpc(at(), ping(1))).body).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('answers another request while a batch of 100 runs', async () => {
    // The batch's first call asks the venue for one window and its last call for another; the 98 between read a
    // sealed window (no I/O: each runs within one turn of the event loop). Once the venue has been asked for the
    // first window the batch is running, and a ping sent then must be answered before the last call starts.
    const first = ['ETH/1m', ETH_DAY + i * DAY + 12 * 3600] as const;
    const last = ['ES/1m', ES_OPEN + i * DAY] as const;
    const sealed = tapeCall(0, 'BTC', MONTH + (24 + i) * DAY, 250);
    expect((await rpc(at(), sealed, bearer)).body).toMatchObject({ result: { structuredContent: { coverage: { sealed: true } } } });
    const asked = (key: string) => venue.hits.get(key) ?? 0;
    const before = { first: asked(first[0]), last: asked(last[0]) };
    const batch = rpc(
      at(),
      [tapeCall(0, 'ETH', first[1], 60), ...Array.from({ length: 98 }, (_, k) => ({ ...sealed, id: k + 1 })), tapeCall(99, 'ES', last[1], 60)],
      bearer,
    );
    while (asked(first[0]) === before.first) await nextTurn();
    const between = await rpc(at(), ping('between'));
    expect(between.body).toEqual({ jsonrpc: '2.0', id: 'between', result: {} });
    expect(asked(last[0])).toBe(before.last);

    const answers = (await batch).body as Answer[];
    expect(answers.map((x) => x.id)).toEqual(Array.from({ length: 100 }, (_, id) => id));
    for (const x of answers) expect(x.result).toMatchObject({ structuredContent: { candles: expect.any(Array) } });
    expect(asked(last[0])).toBe(before.last + 1);
  });

  it('runs no call once the answers reach 16 MiB: those calls are answered -32600 naming the cap', async () => {
    // Each call answers 20,000 bars (several MiB as structured content and text): ten of them would pass the cap.
    const a = await rpc(at(), Array.from({ length: 10 }, (_, id) => tapeCall(id, 'BTC', MONTH + DAY, 20_000)), bearer);
    expect(a.status).toBe(200);
    const answers = a.body as Answer[];
    expect(answers.map((x) => x.id)).toEqual(Array.from({ length: 10 }, (_, id) => id));
    const ran = answers.filter((x) => x.result !== undefined);
    const notRun = answers.filter((x) => x.error !== undefined);
    expect(ran.length).toBeGreaterThan(0);
    expect(notRun.length).toBeGreaterThan(0);
    // The calls run are the first ones; every one of them answered whole.
    expect(ran.map((x) => x.id)).toEqual(Array.from({ length: ran.length }, (_, id) => id));
    for (const x of ran) expect(x.result!.structuredContent.candles).toHaveLength(20_000);
    for (const x of notRun) expect(x.error).toEqual({ code: -32600, message: expect.stringMatching(/^not run: this batch's answers reached the 16 MiB cap/) });
    // Past the cap by at most the calls already running when it was reached (four at a time).
    const oneAnswer = JSON.stringify(ran[0]).length;
    expect(a.text.length).toBeLessThan(16 * 1024 * 1024 + 4 * oneAnswer);
  });
});
