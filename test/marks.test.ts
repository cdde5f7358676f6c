import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';

let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;
const marks = () => `${deck.url}/me/marks`;

beforeAll(async () => {
  deck = await testDeck();
  me = await signedIn(deck.url, 'marker');
});
afterAll(() => deck.stop());

describe('marks', () => {
  it('all three routes need a session', async () => {
    expect((await call(marks())).status).toBe(401);
    expect((await call(marks(), { body: { market: 'NQ', kind: 'level', price: 1 } })).status).toBe(401);
    expect((await call(`${marks()}?id=mk_0000000000000000`, { method: 'DELETE' })).status).toBe(401);
  });

  it('places a level and a zone and states them in one plain sentence per market', async () => {
    const level = await call(marks(), { body: { market: 'NQ', kind: 'level', price: 18250.5, note: 'prior day high' }, headers: me.bearer });
    expect(level.status).toBe(200);
    expect(level.body.mark).toMatchObject({ market: 'NQ', kind: 'level', price: 18250.5, note: 'prior day high' });
    expect(level.body.mark.id).toMatch(/^mk_[0-9a-f]{16}$/);
    await call(marks(), { body: { market: 'NQ', kind: 'zone', price: 18300, price2: 18280 }, headers: me.bearer });
    await call(marks(), { body: { market: 'BTC', kind: 'level', price: 64000 }, headers: me.bearer });
    const { body } = await call(marks(), { headers: me.bearer });
    expect(body.marks).toHaveLength(3);
    expect(body.words).toEqual([
      'On NQ you marked a level at 18250.5 (prior day high) and a zone from 18280 to 18300.',
      'On BTC you marked a level at 64000.',
    ]);
    const btc = await call(`${marks()}?market=BTC`, { headers: me.bearer });
    expect(btc.body.marks).toHaveLength(1);
    expect(btc.body.words).toEqual(['On BTC you marked a level at 64000.']);
  });

  it('refuses invalid marks with 422 naming the field, and stores nothing', async () => {
    const bad: [unknown, string][] = [
      [{ market: 'DOGE', kind: 'level', price: 1 }, 'market'],
      [{ market: 'ES', kind: 'line', price: 1 }, 'kind'],
      [{ market: 'ES', kind: 'level', price: -5 }, 'price'],
      [{ market: 'ES', kind: 'level', price: 0 }, 'price'],
      [{ market: 'ES', kind: 'level', price: '5000' }, 'price'],
      [{ market: 'ES', kind: 'zone', price: 5000 }, 'price2'],
      [{ market: 'ES', kind: 'zone', price: 5000, price2: 5000 }, 'price2'],
      [{ market: 'ES', kind: 'level', price: 5000, price2: 5001 }, 'price2'],
      [{ market: 'ES', kind: 'level', price: 5000, note: '<b>buy</b>' }, 'note'],
      [{ market: 'ES', kind: 'level', price: 5000, note: 'x'.repeat(141) }, 'note'],
      [{ market: 'ES', kind: 'level', price: 5000, colour: 'red' }, '(body)'],
    ];
    for (const [body, field] of bad) {
      const res = await call(marks(), { body, headers: me.bearer });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.problems.map((p: { field: string }) => p.field), JSON.stringify(body)).toContain(field);
    }
    expect((await call(`${marks()}?market=ES`, { headers: me.bearer })).body.marks).toHaveLength(0);
  });

  it('answers 400 when the body is not JSON or missing, and 422 for an unknown market filter', async () => {
    expect((await call(marks(), { raw: '{market:', headers: me.bearer })).status).toBe(400);
    expect((await call(marks(), { method: 'POST', headers: me.bearer })).status).toBe(400);
    expect((await call(`${marks()}?market=XAU`, { headers: me.bearer })).status).toBe(422);
  });

  it('deletes by id: 422 not a mark id, 404 no such mark of yours', async () => {
    const placed = await call(marks(), { body: { market: 'SOL', kind: 'level', price: 150 }, headers: me.bearer });
    const id = placed.body.mark.id as string;
    expect((await call(`${marks()}?id=nope`, { method: 'DELETE', headers: me.bearer })).status).toBe(422);
    expect((await call(`${marks()}?id=mk_0123456789abcdef`, { method: 'DELETE', headers: me.bearer })).status).toBe(404);
    const other = await signedIn(deck.url, 'other-marker');
    expect((await call(`${marks()}?id=${id}`, { method: 'DELETE', headers: other.bearer })).status).toBe(404);
    const gone = await call(`${marks()}?id=${id}`, { method: 'DELETE', headers: me.bearer });
    expect(gone.status).toBe(200);
    expect(gone.body.marks.find((m: { id: string }) => m.id === id)).toBeUndefined();
  });

  it('caps marks at 20 per market and 60 in all (409)', async () => {
    const capper = await signedIn(deck.url, 'capper');
    const place = (market: string, price: number) => call(marks(), { body: { market, kind: 'level', price }, headers: capper.bearer });
    for (let i = 1; i <= 20; i++) expect((await place('ETH', i)).status).toBe(200);
    const over = await place('ETH', 21);
    expect(over.status).toBe(409);
    expect(over.body.error).toBe('cap_reached');
    for (let i = 1; i <= 20; i++) await place('ES', i);
    for (let i = 1; i <= 20; i++) await place('NQ', i);
    const total = await place('YM', 1);
    expect(total.status).toBe(409);
    expect(total.body.message).toMatch(/60/);
    expect((await call(marks(), { headers: capper.bearer })).body.marks).toHaveLength(60);
  });
});
