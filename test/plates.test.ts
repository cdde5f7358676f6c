import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVenue, tapeRows, type VenueFixture } from './fixtures/venue.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { legacyClient } from './support/mcp.js';

const H = 3600;
const iso = (t: number) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');
const START = Date.UTC(2025, 2, 10, 12) / 1000; // inside the real BTC 1m month
const WINDOW = { market: 'BTC', tf: '1m', from: iso(START), to: iso(START + 500 * 60), indicators: ['ema:20', 'bb:20:2'] };

let venue: VenueFixture;
let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;
const seal = (body: unknown, headers = me.bearer) => call(`${deck.url}/plates`, { body, headers });

beforeAll(async () => {
  venue = await startVenue({ 'BTC/1m': tapeRows('BTC-1m'), 'NQ/1m': tapeRows('NQ-1m') });
  deck = await testDeck({ DECK_TAPE_URL: venue.url });
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
    expect(parsed.marks).toEqual([expect.objectContaining({ kind: 'zone', price: 80000, price2: 80500, note: 'overnight range' })]);
    expect(state).not.toMatch(/plater/);
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
    [{ ...WINDOW, from: '2025-03-10 12:00' }, 'from'],
    [{ ...WINDOW, to: iso(START + 3000 * 60) }, 'to'],
    [{ ...WINDOW, market: 'XAU' }, 'market'],
  ])('refuses %j with 422 naming %s', async (body, field) => {
    const res = await seal(body);
    expect(res.status).toBe(422);
    expect(res.body.problems.map((p: { field: string }) => p.field)).toContain(field);
  });

  it('refuses an undrawable picture (a weekend of NQ has no bars) with 422', async () => {
    const sat = Date.UTC(2023, 10, 25) / 1000;
    const res = await seal({ market: 'NQ', tf: '1m', from: iso(sat), to: iso(sat + 6 * H) });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: 'undrawable', reason: 'no_bars' });
  });

  it('answers 404 for a plate that is not there', async () => {
    expect((await fetch(`${deck.url}/plates/${'0'.repeat(64)}.png`)).status).toBe(404);
    expect((await fetch(`${deck.url}/plates/..%2Fsecret.json`)).status).toBe(404);
  });

  it('allows 40 seals a day per principal (429 after), re-seals not counted', async () => {
    const sealer = await signedIn(deck.url, 'forty');
    const half = (i: number) => ({ market: 'BTC', tf: '1h', from: iso(START + i * 12 * H), to: iso(START + (i + 1) * 12 * H) });
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
