import { createHash } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVenue, sampleRows, type VenueFixture } from './fixtures/venue.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { grantsFile, legacyClient } from './support/mcp.js';
import { sample, scrape } from './support/metrics.js';

// The observability plane over real HTTP (and MCP): GET /metrics moving as requests, tool calls and upstream calls
// are made; who may read it; GET /health and GET /ready; the ledgers with their heads and a verify walk that names
// where a chain broken on disk breaks.

/** The end of 5 April 2018, a day the shipped BTC minutes hold whole. */
const TO = Date.UTC(2018, 3, 6) / 1000;
const H = 3600;
const METRICS_TOKEN = 'metrics-bearer-0123456789abcdef';

let grants: string;
let venue: VenueFixture;
let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  grants = await grantsFile([{ name: 'plane_house', tier: 'house' }]);
  venue = await startVenue({ 'BTC/1m': sampleRows('BTC-1m') });
  deck = await testDeck({ DECK_TAPE_URL: venue.url, DECK_GRANTS: grants, DECK_TRUST_PROXY: 'loopback', DECK_METRICS_TOKEN: METRICS_TOKEN });
  me = await signedIn(deck.url, 'plane_user');
});
afterAll(async () => {
  await deck.stop();
  await venue.close();
  await rm(dirname(grants), { recursive: true, force: true });
});

describe('GET /metrics', () => {
  it('counts a REST request by surface, method, route and status, with its latency, and the tool it called', async () => {
    const labels = { surface: 'rest', method: 'GET', route: '/catalogue', status: '200' };
    const before = await scrape(deck.url);
    await call(`${deck.url}/catalogue`);
    const after = await scrape(deck.url);
    expect(sample(after, 'deck_http_requests_total', labels) - sample(before, 'deck_http_requests_total', labels)).toBe(1);
    const timed = { surface: 'rest', method: 'GET', route: '/catalogue' };
    expect(sample(after, 'deck_http_request_duration_seconds_count', timed) - sample(before, 'deck_http_request_duration_seconds_count', timed)).toBe(1);
    const tool = { tool: 'catalogue', surface: 'rest', outcome: 'ok' };
    expect(sample(after, 'deck_tool_calls_total', tool) - sample(before, 'deck_tool_calls_total', tool)).toBe(1);
  });

  it('labels a route by its pattern, never by the ids in its path, and an unmatched path as unmatched', async () => {
    await call(`${deck.url}/skills/no-such-skill`, { headers: me.bearer });
    await call(`${deck.url}/no/such/route`);
    const text = await scrape(deck.url);
    expect(sample(text, 'deck_http_requests_total', { surface: 'rest', method: 'GET', route: '/skills/:id', status: '404' })).toBe(1);
    expect(sample(text, 'deck_http_requests_total', { surface: 'rest', method: 'GET', route: '(unmatched)', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('no-such-skill');
    expect(sample(text, 'deck_tool_calls_total', { tool: 'skill_read', surface: 'rest', outcome: 'refused' })).toBe(1);
  });

  it('counts MCP requests on the mcp surface and tool calls over MCP by outcome', async () => {
    const ok = { tool: 'catalogue', surface: 'mcp', outcome: 'ok' };
    const refused = { tool: 'marks', surface: 'mcp', outcome: 'refused' };
    const before = await scrape(deck.url);
    const client = await legacyClient(`${deck.url}/mcp`, me.bearer);
    await client.callTool({ name: 'catalogue', arguments: {} });
    expect((await client.callTool({ name: 'marks', arguments: { market: 'XX' } })).isError).toBe(true);
    await client.close();
    const after = await scrape(deck.url);
    expect(sample(after, 'deck_tool_calls_total', ok) - sample(before, 'deck_tool_calls_total', ok)).toBe(1);
    expect(sample(after, 'deck_tool_calls_total', refused) - sample(before, 'deck_tool_calls_total', refused)).toBe(1);
    const mcp = { surface: 'mcp', method: 'POST', route: '/mcp', status: '200' };
    expect(sample(after, 'deck_http_requests_total', mcp) - sample(before, 'deck_http_requests_total', mcp)).toBeGreaterThanOrEqual(3);
  });

  it('counts upstream calls by upstream and outcome', async () => {
    const ok = { upstream: 'venue_tape', outcome: 'ok' };
    const refused = { upstream: 'venue_tape', outcome: 'refused' };
    const before = await scrape(deck.url);
    expect((await call(`${deck.url}/timetravel/candles/BTC/1m?from=${TO - H}&to=${TO}`, { headers: me.bearer })).status).toBe(200);
    venue.mode = 'error';
    try {
      expect((await call(`${deck.url}/timetravel/candles/BTC/1m?from=${TO - 3 * H}&to=${TO - 2 * H}`, { headers: me.bearer })).status).toBe(502);
    } finally {
      venue.mode = 'up';
    }
    const after = await scrape(deck.url);
    expect(sample(after, 'deck_upstream_calls_total', ok) - sample(before, 'deck_upstream_calls_total', ok)).toBeGreaterThanOrEqual(1);
    // A venue answering 500 is asked three times (two retries), each a refused call.
    expect(sample(after, 'deck_upstream_calls_total', refused) - sample(before, 'deck_upstream_calls_total', refused)).toBe(3);
    expect(sample(after, 'deck_upstream_call_duration_seconds_count', { upstream: 'venue_tape' })).toBeGreaterThanOrEqual(4);
  });

  it('reads every guard\'s depth, each ledger\'s length and the process\'s own metrics at each scrape', async () => {
    for (let i = 0; i < 2; i++) expect((await call(`${deck.url}/meter`, { body: { action: 'forecast' }, headers: me.bearer })).status).toBe(200);
    const text = await scrape(deck.url);
    for (const guard of ['forge_cast', 'trial', 'ledger_walk', 'chat_lane', 'work_pool']) expect(text).toContain(`deck_guard_queue_depth{guard="${guard}"} 0`);
    const meterLines = (await readFile(join(deck.dataDir, 'meter.jsonl'), 'utf8')).split('\n').filter(Boolean).length;
    expect(meterLines).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'deck_ledger_entries', { ledger: 'meter' })).toBe(meterLines);
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_heap_size_total_bytes');
  });

  describe('is only for the house', () => {
    // Behind the trusted loopback proxy, a forwarded address is the client: one that is not this machine.
    const away = { 'x-forwarded-for': '203.0.113.7' };
    const metricsFrom = (headers: Record<string, string>) => fetch(`${deck.url}/metrics`, { headers: { ...away, ...headers } });

    it('serves a caller on loopback, the DECK_METRICS_TOKEN bearer and a house principal', async () => {
      expect((await fetch(`${deck.url}/metrics`)).status).toBe(200);
      expect((await metricsFrom({ authorization: `Bearer ${METRICS_TOKEN}` })).status).toBe(200);
      const house = await signedIn(deck.url, 'plane_house');
      const res = await metricsFrom(house.bearer);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    });

    it('refuses anyone else: 401 without a credential or with one that does not verify, 403 naming the house tier', async () => {
      const bare = await metricsFrom({});
      expect(bare.status).toBe(401);
      expect((await metricsFrom({ authorization: 'Bearer metrics-bearer-wrong-wrong-wrong' })).status).toBe(401);
      const res = await metricsFrom(me.bearer);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: 'upgrade_required', tier: 'house' });
    });
  });
});

describe('GET /health and GET /ready', () => {
  it('health says the process is alive', async () => {
    const { status, body } = await call(`${deck.url}/health`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, alive: true, version: '1.0.0' });
  });

  it("ready says the store takes a write and gives each configured upstream's last answer", async () => {
    const { status, body } = await call(`${deck.url}/ready`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, ready: true, store: { writable: true } });
    expect(body.upstreams).toEqual([{ upstream: 'venue_tape', variable: 'DECK_TAPE_URL', last: expect.objectContaining({ outcome: expect.any(String) }) }]);
    await call(`${deck.url}/timetravel/candles/BTC/1m?from=${TO - 5 * H}&to=${TO - 4 * H}`, { headers: me.bearer });
    expect((await call(`${deck.url}/ready`)).body.upstreams[0].last).toMatchObject({ outcome: 'ok', status: 200 });
  });

  it('ready is 503 while the data directory takes no write, and 200 again once it does', async () => {
    const fresh = await testDeck({ DECK_TAPE_URL: venue.url });
    const away = `${fresh.dataDir}-away`;
    try {
      expect((await call(`${fresh.url}/ready`)).body.upstreams).toEqual([{ upstream: 'venue_tape', variable: 'DECK_TAPE_URL', last: null }]);
      await rename(fresh.dataDir, away);
      const gone = await call(`${fresh.url}/ready`);
      expect(gone.status).toBe(503);
      expect(gone.body).toMatchObject({ ok: false, ready: false, store: { writable: false } });
      expect(JSON.stringify(gone.body)).not.toContain(fresh.dataDir);
      await rename(away, fresh.dataDir);
      expect((await call(`${fresh.url}/ready`)).status).toBe(200);
    } finally {
      await rm(away, { recursive: true, force: true });
      await fresh.stop();
    }
  });
});

describe('the ledgers', () => {
  let books: TestDeck;
  let who: Awaited<ReturnType<typeof signedIn>>;
  const meterFile = () => join(books.dataDir, 'meter.jsonl');
  const linesOf = async () => (await readFile(meterFile(), 'utf8')).split('\n').filter(Boolean);
  const verify = (name = 'meter') => call(`${books.url}/plane/ledgers/${name}/verify`, { headers: who.bearer });
  const hashOf = (e: { seq: number; at: number; prev: string; entry: unknown }) => createHash('sha256').update(JSON.stringify([e.seq, e.at, e.prev, e.entry])).digest('hex');

  beforeAll(async () => {
    books = await testDeck();
    who = await signedIn(books.url, 'ledger_reader');
    for (const action of ['forecast', 'trial', 'forge']) expect((await call(`${books.url}/meter`, { body: { action }, headers: who.bearer })).status).toBe(200);
  });
  afterAll(() => books.stop());

  it('lists every ledger with its length and head hash, as kept on disk', async () => {
    const { status, body } = await call(`${books.url}/plane/ledgers`);
    expect(status).toBe(200);
    const last = JSON.parse((await linesOf()).at(-1)!);
    expect(body.ledgers).toEqual([{ name: 'meter', length: 3, head: last.hash }]);
  });

  it('verifies an intact ledger from its first entry to its head, over REST and MCP (and lists it there too)', async () => {
    const last = JSON.parse((await linesOf()).at(-1)!);
    const { status, body } = await verify();
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, ledger: 'meter', intact: true, checked: 3, head: last.hash, break: null });
    const client = await legacyClient(`${books.url}/mcp`, who.bearer);
    expect((await client.callTool({ name: 'ledgers', arguments: {} })).structuredContent).toMatchObject({ ledgers: [{ name: 'meter', length: 3, head: last.hash }] });
    expect((await client.callTool({ name: 'ledger_verify', arguments: { ledger: 'meter' } })).structuredContent).toMatchObject({ intact: true, checked: 3 });
    await client.close();
  });

  it('names where a ledger broken on disk breaks: the line, the entry, why, the expected and the found hash', async () => {
    const lines = await linesOf();
    const [first, second, third] = lines.map((l) => JSON.parse(l));
    try {
      // An entry changed after it was written: its own hash no longer matches it.
      const changed = { ...second, entry: { ...second.entry, units: 999 } };
      await writeFile(meterFile(), [lines[0], JSON.stringify(changed), lines[2], ''].join('\n'));
      expect((await verify()).body).toMatchObject({
        intact: false,
        checked: 1,
        head: first.hash,
        break: { line: 2, seq: 2, why: 'hash does not match the entry', expected: hashOf(changed), found: second.hash },
      });

      // An entry taken out: the next one's link names the hash it carries against the one the chain reached.
      await writeFile(meterFile(), [lines[0], lines[2], ''].join('\n'));
      expect((await verify()).body.break).toEqual({ line: 2, seq: 3, why: 'prev does not match the previous hash', expected: first.hash, found: third.prev });

      // A line that is not an entry at all.
      await writeFile(meterFile(), [lines[0], 'not an entry', lines[2], ''].join('\n'));
      expect((await verify()).body.break).toEqual({ line: 2, seq: null, why: 'the line is not a ledger entry', expected: first.hash, found: null });

      // The head as listed follows the file too.
      expect((await call(`${books.url}/plane/ledgers`)).body.ledgers[0]).toEqual({ name: 'meter', length: 3, head: third.hash });
    } finally {
      await writeFile(meterFile(), `${lines.join('\n')}\n`);
    }
    expect((await verify()).body.intact).toBe(true);
  });

  it('answers 404 listing the ledgers for one that does not exist, 422 for a name that cannot be one, and 401 without a session', async () => {
    const missing = await verify('nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'no_such_ledger', ledgers: ['meter'] });
    expect((await verify('..%2Fsecret')).status).toBe(422);
    expect((await call(`${books.url}/plane/ledgers/meter/verify`)).status).toBe(401);
  });
});
