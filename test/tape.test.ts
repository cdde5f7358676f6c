import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVenue, sampleRows, type VenueFixture } from './fixtures/venue.js';
import { samplePath } from './support/cli.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { refusalIn } from './support/mcp.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const H = 3600;
const D = 86_400;
// Days the shipped BTC minutes hold whole (every minute traded), and a day of the shipped ES week.
const BTC_START = Date.UTC(2017, 8, 3) / 1000; // 2017-09-03T00:00Z
const BTC_NEXT = Date.UTC(2017, 8, 4) / 1000;
const BTC_DEC = Date.UTC(2017, 11, 17) / 1000;
const BTC_APR5 = Date.UTC(2018, 3, 5) / 1000;
const BTC_APR6 = Date.UTC(2018, 3, 6) / 1000;
const ES_TUE = Date.UTC(2013, 9, 8) / 1000; // Tuesday 2013-10-08, summer time (CDT): the break is 21:00-22:00Z

let venue: VenueFixture;
let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;
const candles = (path: string) => call(`${deck.url}/timetravel/candles/${path}`, { headers: me.bearer });

beforeAll(async () => {
  venue = await startVenue({ 'BTC/1m': sampleRows('BTC-1m'), 'ES/1m': sampleRows('ES-1m') });
  deck = await testDeck({ DECK_TAPE_URL: venue.url });
  me = await signedIn(deck.url, 'trader');
});
afterAll(async () => {
  await deck.stop();
  await venue.close();
});

describe('GET /timetravel/candles/{market}/{tf}', () => {
  it('needs a session', async () => {
    expect((await call(`${deck.url}/timetravel/candles/BTC/1m?from=${BTC_START}&to=${BTC_START + H}`)).status).toBe(401);
  });

  it.each([
    ['XAU/1m?from=1&to=2', 'market'],
    ['BTC/2m?from=1&to=2', 'tf'],
    [`BTC/1m?from=${BTC_START}&to=${BTC_START}`, 'from'],
    [`BTC/1m?from=${BTC_START}&to=4102444800`, 'to'],
    [`BTC/1m?from=${BTC_START}.5&to=${BTC_START + H}`, 'from'],
    [`BTC/1m?from=${BTC_START}`, 'to'],
    [`BTC/1m?from=${BTC_START}&to=${BTC_START + 20 * D}`, 'to'],
    [`BTC/1m?from=${BTC_START}&to=${BTC_START + H}&session=a%20b`, 'session'],
  ])('%s is refused with 422 naming %s', async (path, field) => {
    const { status, body } = await candles(path);
    expect(status).toBe(422);
    expect(body.problems.map((p: { field: string }) => p.field)).toContain(field);
  });

  it('serves real bars from the venue with coverage of what was measured', async () => {
    const { status, body } = await candles(`BTC/1m?from=${BTC_START}&to=${BTC_START + D}`);
    expect(status).toBe(200);
    expect(body.candles).toHaveLength(1440);
    const first = sampleRows('BTC-1m').find((r) => r[0] === BTC_START)!;
    expect(body.candles[0]).toEqual({ t: first[0], o: first[1], h: first[2], l: first[3], c: first[4], v: first[5] });
    expect(body.coverage).toMatchObject({ measured: true, bars: 1440, expected: 1440, complete: true, source: 'venue', sealed: true });
    expect(body.coverage.missing.bars).toBe(0);
  });

  it('seals a past window: the same request returns the same bytes though the venue later answers differently', async () => {
    const path = `BTC/1m?from=${BTC_NEXT}&to=${BTC_NEXT + 6 * H}`;
    const url = `${deck.url}/timetravel/candles/${path}`;
    const first = await (await fetch(url, { headers: me.bearer })).text();
    const hits = venue.hits.get('BTC/1m');
    venue.shift = 1000;
    try {
      const again = await (await fetch(url, { headers: me.bearer })).text();
      expect(again).toBe(first);
      expect(venue.hits.get('BTC/1m')).toBe(hits);
      // A replay session bypasses every cache: it sees what the venue answers now.
      const session = await candles(`${path}&session=replay-1`);
      expect(session.body.candles[0].o).toBeCloseTo(JSON.parse(first).candles[0].o + 1000, 6);
      expect(session.body.coverage.sealed).toBe(false);
      expect(venue.hits.get('BTC/1m')).toBe(hits! + 1);
    } finally {
      venue.shift = 0;
    }
  });

  it('keeps every bar once seen: the venue down, a kept window is answered from the archive', async () => {
    await candles(`BTC/1m?from=${BTC_DEC}&to=${BTC_DEC + D}`);
    venue.mode = 'error';
    try {
      const inner = await candles(`BTC/1m?from=${BTC_DEC + H}&to=${BTC_DEC + 3 * H}`);
      expect(inner.status).toBe(200);
      expect(inner.body.coverage).toMatchObject({ source: 'archive', bars: 120, complete: true });
    } finally {
      venue.mode = 'up';
    }
  });

  it('answers 502 when the venue does not answer (after retrying) or answers something that is not candles', async () => {
    const hits = venue.hits.get('BTC/1m') ?? 0;
    venue.mode = 'error';
    try {
      const down = await candles(`BTC/1m?from=${BTC_APR5}&to=${BTC_APR5 + H}`);
      expect(down.status).toBe(502);
      expect(down.body.upstream).toBe('venue tape');
      expect(venue.hits.get('BTC/1m')).toBe(hits + 3);
      venue.mode = 'garbage';
      expect((await candles(`BTC/1m?from=${BTC_APR5 + H}&to=${BTC_APR5 + 2 * H}`)).status).toBe(502);
    } finally {
      venue.mode = 'up';
    }
  });

  it('builds 5m and 1h from 1m when the venue serves only 1m, and says so', async () => {
    const rows = sampleRows('BTC-1m').filter((r) => r[0] >= BTC_APR6 && r[0] < BTC_APR6 + H);
    const hour = await candles(`BTC/1h?from=${BTC_APR6}&to=${BTC_APR6 + D}`);
    expect(hour.status).toBe(200);
    expect(hour.body.candles).toHaveLength(24);
    expect(hour.body.coverage.built_from).toEqual({ tf: '1m', partial: 0 });
    expect(hour.body.candles[0]).toMatchObject({
      t: BTC_APR6,
      o: rows[0]![1],
      h: Math.max(...rows.map((r) => r[2])),
      l: Math.min(...rows.map((r) => r[3])),
      c: rows[59]![4],
    });
    expect(hour.body.candles[0].v).toBeCloseTo(rows.reduce((s, r) => s + r[5], 0), 6);
    const five = await candles(`BTC/5m?from=${BTC_APR6}&to=${BTC_APR6 + H}`);
    expect(five.body.candles).toHaveLength(12);
  });

  it('follows the CME session for ES: no bar in the daily break, which counts as closed, not missing', async () => {
    const { body } = await candles(`ES/1m?from=${ES_TUE + 20.5 * H}&to=${ES_TUE + 22.5 * H}`);
    const inBreak = body.candles.filter((c: { t: number }) => c.t >= ES_TUE + 21 * H && c.t < ES_TUE + 22 * H);
    expect(inBreak).toHaveLength(0);
    expect(body.coverage.closed.spans).toEqual([{ from: ES_TUE + 21 * H, to: ES_TUE + 22 * H, why: 'daily_break' }]);
    expect(body.coverage.expected).toBe(60);
    expect(body.coverage.missing.bars).toBe(0);
    expect(body.candles).toHaveLength(60);
    // 2013's schedule still traded 16:00 to 16:14 Chicago: the venue's 15 bars there are left out, and counted.
    expect(body.coverage.left_out_in_halts).toBe(15);
  });

  it('counts a weekend as closed market', async () => {
    const sat = Date.UTC(2013, 9, 12) / 1000;
    const { body } = await candles(`ES/1h?from=${sat}&to=${sat + D}`);
    expect(body.candles).toHaveLength(0);
    expect(body.coverage).toMatchObject({ expected: 0, complete: false });
    expect(body.coverage.closed.spans[0].why).toBe('weekend');
    expect(body.coverage.missing.bars).toBe(0);
  });

  it('serves the same capability as the tape tool on /mcp/candles', async () => {
    const res = await call(`${deck.url}/mcp/candles`, {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'tape', arguments: { market: 'BTC', tf: '1m', from: BTC_START, to: BTC_START + H } } },
      headers: { ...me.bearer, accept: 'application/json, text/event-stream' },
    });
    expect(res.body.result.structuredContent.candles).toHaveLength(60);
    const rest = await candles(`BTC/1m?from=${BTC_START}&to=${BTC_START + H}`);
    expect(res.body.result.structuredContent).toEqual(rest.body);
  });
});

describe('a long window over MCP: a summary and the first bars first', () => {
  const tapeOverMcp = (args: Record<string, unknown>) =>
    call(`${deck.url}/mcp/candles`, {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'tape', arguments: { market: 'BTC', tf: '1m', ...args } } },
      headers: { ...me.bearer, accept: 'application/json, text/event-stream' },
    });

  it('answers a day of 1m bars with the first 500, a summary of the whole day and where the rest begins; REST answers it whole', async () => {
    const whole = (await candles(`BTC/1m?from=${BTC_START}&to=${BTC_START + D}`)).body;
    const first = (await tapeOverMcp({ from: BTC_START, to: BTC_START + D })).body.result.structuredContent;
    expect(first.candles).toEqual(whole.candles.slice(0, 500));
    expect(first.coverage).toEqual(whole.coverage);
    const rows = whole.candles as { t: number; o: number; h: number; l: number; c: number; v: number }[];
    expect(first.summary).toEqual({
      bars: 1440,
      shown: 500,
      open: rows[0]!.o,
      high: Math.max(...rows.map((r) => r.h)),
      low: Math.min(...rows.map((r) => r.l)),
      close: rows.at(-1)!.c,
      volume: rows.reduce((v, r) => v + r.v, 0),
    });
    expect(first.more).toEqual({ bars: 940, from: rows[500]!.t });
    // Asking on from there reads the next page; a limit asks for more at once, up to the cap of one answer.
    const next = (await tapeOverMcp({ from: first.more.from, to: BTC_START + D })).body.result.structuredContent;
    expect(next.candles).toEqual(rows.slice(500, 1000));
    const all = (await tapeOverMcp({ from: BTC_START, to: BTC_START + D, limit: 20_000 })).body.result.structuredContent;
    expect(all).toEqual(whole);
    const bad = (await tapeOverMcp({ from: BTC_START, to: BTC_START + D, limit: 0 })).body.result;
    expect(refusalIn(bad)).toMatchObject({ status: 422, problems: [{ field: 'limit' }] });
  });

  it('states the limit MCP applies in its listing', async () => {
    const listed = await call(`${deck.url}/mcp/candles`, { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: { accept: 'application/json, text/event-stream' } });
    const tape = (listed.body.result.tools as { name: string; description: string; inputSchema: { properties: Record<string, { default?: unknown }> } }[]).find((t) => t.name === 'tape')!;
    expect(tape.inputSchema.properties.limit!.default).toBe(500);
    expect(tape.description).toMatch(/first 500 bars/);
  });
});

describe('the tape archive filled by npm run tape -- import', () => {
  it('imports real bars, refuses bad rows by line, and the deck serves them with no venue', async () => {
    const data = await mkdtemp(join(tmpdir(), 'deck-import-'));
    const env = { ...process.env, DECK_DATA: data };
    // The shipped Binance BTCUSDT hours of 1 to 5 May 2018.
    const ok = await run(process.execPath, ['--import', 'tsx', 'cli/tape.ts', 'import', samplePath('BTC-1h-binance'), '--market', 'BTC', '--tf', '1h'], { cwd: ROOT, env });
    expect(ok.stdout).toMatch(/120 bars read, 120 new kept/);
    const bad = join(data, 'bad.csv');
    await writeFile(bad, 't,o,h,l,c,v\n3600,10,12,9,11,5\n7200,10,9,9.5,11,5\n3600,10,12,9,11,5\n');
    const refused = await run(process.execPath, ['--import', 'tsx', 'cli/tape.ts', 'import', bad, '--market', 'ETH', '--tf', '1h'], { cwd: ROOT, env }).catch((e: { code: number; stderr: string }) => e);
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stderr: string }).stderr).toMatch(/line 3: .*l <= min/);
    expect((refused as { stderr: string }).stderr).toMatch(/line 4: t must increase/);

    const offline = await testDeck({ DECK_DATA: data });
    try {
      const who = await signedIn(offline.url, 'archivist');
      const from = Date.UTC(2018, 4, 3) / 1000;
      const got = await call(`${offline.url}/timetravel/candles/BTC/1h?from=${from}&to=${from + D}`, { headers: who.bearer });
      expect(got.status).toBe(200);
      expect(got.body.coverage).toMatchObject({ source: 'archive', bars: 24, complete: true });
      expect(got.body.candles[1].t - got.body.candles[0].t).toBe(H);
      const none = await call(`${offline.url}/timetravel/candles/SOL/1h?from=${from}&to=${from + D}`, { headers: who.bearer });
      expect(none.status).toBe(503);
      expect(none.body.message).toMatch(/DECK_TAPE_URL/);
    } finally {
      await offline.stop();
    }
  });
});
