import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THEME } from '../engine/plate/theme.js';
import { startVenue, sampleRows, type VenueFixture } from './fixtures/venue.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { legacyClient, refusalIn } from './support/mcp.js';

const H = 3600;
const iso = (t: number) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');
const START = Date.UTC(2018, 3, 5, 12) / 1000; // a day the shipped BTC minutes hold whole
/** The shipped Bitfinex BTC hours of October 2013: days of windows to seal one after another. */
const HOURS = Date.UTC(2013, 9, 2) / 1000;
const WINDOW = { market: 'BTC', tf: '1m', from: iso(START), to: iso(START + 500 * 60), indicators: ['ema:20', 'bb:20:2'] };

let venue: VenueFixture;
let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;
const seal = (body: unknown, headers = me.bearer) => call(`${deck.url}/plates`, { body, headers });

beforeAll(async () => {
  venue = await startVenue({ 'BTC/1m': sampleRows('BTC-1m'), 'BTC/1h': sampleRows('BTC-1h'), 'ES/1m': sampleRows('ES-1m') });
  // Plates are drawn on the work pool, whose lane (4 jobs a principal by default) would refuse ten at once with 429
  // lane_full before the seal's own race is reached (test/work-pool.test.ts holds the lane).
  deck = await testDeck({ DECK_TAPE_URL: venue.url, DECK_WORK_LANE: '16' });
  me = await signedIn(deck.url, 'plater');
  await call(`${deck.url}/me/marks`, { body: { market: 'BTC', kind: 'zone', price: 80000, price2: 80500, note: 'overnight range' }, headers: me.bearer });
});
afterAll(async () => {
  await deck.stop();
  await venue.close();
});

describe('POST /plates', () => {
  it('needs a session', async () => {
    expect((await call(`${deck.url}/plates`, { body: WINDOW })).status).toBe(401);
  });

  it('seals a PNG candle chart with its chart_state, fetchable at path, naming no one', async () => {
    const { status, body } = await seal(WINDOW);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, fresh: true, path: `/plates/${body.id}` });
    expect(body.id).toMatch(/^[0-9a-f]{64}$/);
    const png = await fetch(body.png);
    expect(png.headers.get('content-type')).toBe('image/png');
    const image = PNG.sync.read(Buffer.from(await png.arrayBuffer()));
    expect([image.width, image.height]).toEqual([1200, 700]);
    const state = await (await fetch(body.json)).text();
    const parsed = JSON.parse(state);
    expect(parsed).toMatchObject({ market: 'BTC', tf: '1m', bars: { count: 500 } });
    expect(parsed.indicators.map((i: { spec: string }) => i.spec)).toEqual(['ema:20', 'bb:20:2']);
    expect(parsed.marks).toEqual([{ kind: 'zone', placed: expect.any(String) }]);
    expect(state).not.toMatch(/plater|overnight range/);
  });

  it('draws the marks as lines and publishes nothing private: no note, no mark price, in the picture or its JSON', async () => {
    // A level inside the window's range, at a price no bar, tick or indicator states.
    const rows = sampleRows('BTC-1m').filter((r) => r[0] >= START && r[0] < START + 500 * 60);
    const level = Math.round((Math.min(...rows.map((r) => r[3])) + Math.max(...rows.map((r) => r[2]))) / 2) + 0.37;
    const marked = async (name: string, note: string) => {
      const who = await signedIn(deck.url, name);
      await call(`${deck.url}/me/marks`, { body: { market: 'BTC', kind: 'level', price: level, note }, headers: who.bearer });
      await call(`${deck.url}/me/marks`, { body: { market: 'BTC', kind: 'zone', price: level - 300, price2: level - 200, note: `${note} zone` }, headers: who.bearer });
      return seal({ ...WINDOW, indicators: [] }, who.bearer);
    };
    const first = await marked('private-one', 'my secret entry');
    expect(first.body.fresh).toBe(true);
    // The same marks under other notes draw the same plate: the notes never reach it.
    expect((await marked('private-two', 'another secret')).body).toMatchObject({ id: first.body.id, fresh: false });

    const state = await (await fetch(first.body.json)).text();
    expect(state).not.toMatch(/secret/);
    expect(state).not.toContain(String(level));
    expect(state).not.toContain(String(level - 300));
    expect(state).not.toMatch(/axis_m(in|ax)/); // a mark near the bars widens the axis: stating it would state the mark
    expect(JSON.parse(state).marks).toEqual([
      { kind: 'level', placed: 'in_view' },
      { kind: 'zone', placed: 'in_view' },
    ]);
    // The level is drawn: its colour is on the picture, and not on the same window's plate without marks.
    const levelPixels = async (url: string) => {
      const image = PNG.sync.read(Buffer.from(await (await fetch(url)).arrayBuffer()));
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(THEME.level.slice(i, i + 2), 16));
      let n = 0;
      for (let i = 0; i < image.data.length; i += 4) if (image.data[i] === r && image.data[i + 1] === g && image.data[i + 2] === b) n++;
      return n;
    };
    expect(await levelPixels(first.body.png)).toBeGreaterThan(300);
    const bare = await seal({ ...WINDOW, indicators: [] }, (await signedIn(deck.url, 'private-none')).bearer);
    expect(await levelPixels(bare.body.png)).toBe(0);
  });

  it('ten identical seals at once seal once: one fresh, every answer 200, one of the day\'s 40 seals used', async () => {
    const racer = await signedIn(deck.url, 'racer');
    const at = HOURS;
    const window = (k: number) => ({ market: 'BTC', tf: '1h', from: iso(at + k * H), to: iso(at + k * H + 12 * H) });
    const answers = await Promise.all(Array.from({ length: 10 }, () => seal(window(0), racer.bearer)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.body.fresh).length).toBe(1);
    for (let k = 1; k < 39; k++) expect((await seal(window(k), racer.bearer)).status, `seal ${k}`).toBe(200);
    // Two other plates at once for the last seal of the day: one is sealed, the other refused and not kept.
    const last = await Promise.all([seal(window(39), racer.bearer), seal(window(40), racer.bearer)]);
    expect(last.map((a) => a.status).sort()).toEqual([200, 429]);
    const refused = window(last[0]!.status === 429 ? 39 : 40);
    const client = await legacyClient(`${deck.url}/mcp`, racer.bearer);
    try {
      const drawn = await client.callTool({ name: 'chart_image', arguments: refused });
      expect((await fetch(`${deck.url}/plates/${(drawn.structuredContent as { id: string }).id}.json`)).status).toBe(404);
    } finally {
      await client.close();
    }
    expect((await seal(window(41), racer.bearer)).body.error).toBe('seals_used');
  });

  it('records a sealed plate on the meter (plate, 2 units); a re-seal and chart_image spend nothing', async () => {
    const payer = await signedIn(deck.url, 'plate-payer');
    const spent = async () => (await call(`${deck.url}/meter`, { headers: payer.bearer })).body.spent;
    const window = { market: 'BTC', tf: '5m', from: iso(START + 24 * H), to: iso(START + 30 * H) };
    expect(await spent()).toBe(0);
    expect((await seal(window, payer.bearer)).body.fresh).toBe(true);
    expect(await spent()).toBe(2);
    expect((await seal(window, payer.bearer)).body.fresh).toBe(false);
    const client = await legacyClient(`${deck.url}/mcp`, payer.bearer);
    try {
      expect((await client.callTool({ name: 'chart_image', arguments: window })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
    expect(await spent()).toBe(2);
  });

  it('VWAP starts at the UTC day whatever else is on the plate, and every line is the same whatever else is on it', async () => {
    const lastOf = async (indicators: string[]) => {
      const { body } = await seal({ ...WINDOW, indicators });
      const state = await (await fetch(body.json)).json();
      return Object.fromEntries(state.indicators.map((i: { spec: string; lines: { last: number }[] }) => [i.spec, i.lines[0]!.last]));
    };
    const alone = await lastOf(['vwap']);
    const withEma = await lastOf(['vwap', 'ema:20']);
    const withLong = await lastOf(['vwap', 'ema:20', 'sma:500']);
    expect(withEma.vwap).toBe(alone.vwap);
    expect(withLong.vwap).toBe(alone.vwap);
    expect(withLong['ema:20']).toBe(withEma['ema:20']);
    // Independently: the typical price weighted by volume over every bar of the UTC day up to the window's end.
    const day = Math.floor(START / 86_400) * 86_400;
    let pv = 0;
    let v = 0;
    for (const [t, , h, l, c, vol] of sampleRows('BTC-1m')) {
      if (t < day || t >= START + 500 * 60) continue;
      pv += ((h + l + c) / 3) * vol;
      v += vol;
    }
    expect(alone.vwap).toBeCloseTo(pv / v, 6);
  });

  it('answers a failure to keep a plate with a 500 naming no path, and counts nothing for it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'deck-plates-'));
    await writeFile(join(dir, 'plates'), 'not a folder'); // the plates cannot be written
    const broken = await testDeck({ DECK_TAPE_URL: venue.url, DECK_DATA: dir });
    try {
      const who = await signedIn(broken.url, 'unlucky');
      const res = await call(`${broken.url}/plates`, { body: WINDOW, headers: who.bearer });
      expect(res.status).toBe(500);
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(dir);
      expect(text).not.toMatch(/plates\/|EEXIST|ENOTDIR|ENOENT/);
      const client = await legacyClient(`${broken.url}/mcp`, who.bearer);
      try {
        const mcp = await client.callTool({ name: 'plate_seal', arguments: WINDOW });
        expect(mcp.isError).toBe(true);
        expect(refusalIn(mcp)).toMatchObject({ error: 'internal', status: 500 });
        expect(JSON.stringify(mcp)).not.toContain(dir);
      } finally {
        await client.close();
      }
      expect((await call(`${broken.url}/meter`, { headers: who.bearer })).body.spent).toBe(0);
      await rm(join(dir, 'plates'));
      expect((await call(`${broken.url}/plates`, { body: WINDOW, headers: who.bearer })).body.fresh).toBe(true);
      expect((await call(`${broken.url}/meter`, { headers: who.bearer })).body.spent).toBe(2);
    } finally {
      await broken.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('sealing the same thing again returns the same id with fresh false', async () => {
    const first = await seal(WINDOW);
    const again = await seal(WINDOW);
    expect(again.body).toMatchObject({ id: first.body.id, fresh: false });
    const other = await signedIn(deck.url, 'other-plater');
    const theirs = await seal(WINDOW, other.bearer);
    expect(theirs.body.id).not.toBe(first.body.id); // their plate has no marks
    const unmarked = await signedIn(deck.url, 'third-plater');
    expect((await seal(WINDOW, unmarked.bearer)).body).toMatchObject({ id: theirs.body.id, fresh: false });
  });

  it.each([
    [{ ...WINDOW, indicators: ['macd:12'] }, 'indicators.0'],
    [{ ...WINDOW, indicators: ['ema:20', 'ema:0'] }, 'indicators.1'],
    [{ ...WINDOW, to: '2999-01-01T00:00:00Z' }, 'to'],
    [{ ...WINDOW, to: WINDOW.from }, 'from'],
    [{ ...WINDOW, from: '2018-04-05 12:00' }, 'from'],
    [{ ...WINDOW, to: iso(START + 3000 * 60) }, 'to'],
    [{ ...WINDOW, market: 'XAU' }, 'market'],
  ])('refuses %j with 422 naming %s', async (body, field) => {
    const res = await seal(body);
    expect(res.status).toBe(422);
    expect(res.body.problems.map((p: { field: string }) => p.field)).toContain(field);
  });

  it('refuses an undrawable picture (a weekend of ES has no bars) with 422', async () => {
    const sat = Date.UTC(2013, 9, 12) / 1000;
    const res = await seal({ market: 'ES', tf: '1m', from: iso(sat), to: iso(sat + 6 * H) });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: 'undrawable', reason: 'no_bars' });
  });

  it('answers 404 for a plate that is not there', async () => {
    expect((await fetch(`${deck.url}/plates/${'0'.repeat(64)}.png`)).status).toBe(404);
    expect((await fetch(`${deck.url}/plates/..%2Fsecret.json`)).status).toBe(404);
  });

  it('allows 40 seals a day per principal (429 after), re-seals not counted', async () => {
    const sealer = await signedIn(deck.url, 'forty');
    const half = (i: number) => ({ market: 'BTC', tf: '1h', from: iso(HOURS + 6 * 24 * H + i * 12 * H), to: iso(HOURS + 6 * 24 * H + (i + 1) * 12 * H) });
    for (let i = 0; i < 40; i++) expect((await seal(half(i), sealer.bearer)).status, `seal ${i}`).toBe(200);
    const over = await seal(half(40), sealer.bearer);
    expect(over.status).toBe(429);
    expect(over.body.error).toBe('seals_used');
    expect(over.body.retry_after_s).toBeLessThanOrEqual(86_400);
    expect(over.headers.get('retry-after')).toBe(String(over.body.retry_after_s));
    const again = await seal(half(0), sealer.bearer);
    expect(again.body).toMatchObject({ fresh: false });
  });
});

describe('the chart_image tool', () => {
  it('answers the same plate as MCP image content', async () => {
    const client = await legacyClient(`${deck.url}/mcp`, me.bearer);
    try {
      const result = await client.callTool({ name: 'chart_image', arguments: WINDOW });
      const content = result.content as { type: string; data?: string; mimeType?: string }[];
      const image = content.find((c) => c.type === 'image')!;
      expect(image.mimeType).toBe('image/png');
      const png = PNG.sync.read(Buffer.from(image.data!, 'base64'));
      expect(png.width).toBe(1200);
      const sealed = await seal(WINDOW);
      expect((result.structuredContent as { id: string }).id).toBe(sealed.body.id);
    } finally {
      await client.close();
    }
  });
});
