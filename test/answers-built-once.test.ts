import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcDay } from '../store/spend.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';

// Answers that depend only on what a deck started with (the catalogue, the anonymous plans) are built once and
// their JSON kept; a signed-in answer is built for its caller; the headers stay res.json's, and a conditional request
// is answered as express answers it.

let deck: TestDeck;
let other: TestDeck;

beforeAll(async () => {
  deck = await testDeck();
  other = await testDeck({ DECK_TREASURY: '0x000000000000000000000000000000000000dEaD' });
});
afterAll(async () => {
  await deck.stop();
  await other.stop();
});

const text = async (url: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { headers });
  return { status: res.status, type: res.headers.get('content-type'), length: res.headers.get('content-length'), body: await res.text() };
};

describe('answers built once per deck', () => {
  it('answers the anonymous GET /plans and /catalogue with the same bytes each time, typed JSON in UTF-8 with their length', async () => {
    for (const path of ['/plans', '/catalogue']) {
      const [a, b] = [await text(`${deck.url}${path}`), await text(`${deck.url}${path}`)];
      expect(a).toEqual(b);
      expect(a.status).toBe(200);
      expect(a.type).toBe('application/json; charset=utf-8');
      expect(Number(a.length)).toBe(Buffer.byteLength(a.body));
    }
  });

  it('keeps each deck its own: two decks in one process answer their own treasury and addresses', async () => {
    const [mine, theirs] = [JSON.parse((await text(`${deck.url}/plans`)).body), JSON.parse((await text(`${other.url}/plans`)).body)];
    expect(theirs.treasury).toBe('0x000000000000000000000000000000000000dEaD');
    expect(mine.treasury).not.toBe(theirs.treasury);
    const catalogue = JSON.parse((await text(`${other.url}/catalogue`)).body);
    expect(catalogue.deck.base_url).toBe(other.url);
  });

  it('builds a signed-in GET /plans for its caller, after anonymous ones', async () => {
    await text(`${deck.url}/plans`);
    const { bearer } = await signedIn(deck.url, 'built_once');
    const { body } = await call(`${deck.url}/plans`, { headers: bearer });
    expect(body.principal).toMatchObject({ name: 'built_once', tier: 'free' });
    const day = new Date().toISOString().slice(0, 10);
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
    expect(body.mine).toMatchObject({ tier: 'free', plan: 'free', period: { unit: 'utc_day', start: `${day}T00:00:00.000Z`, end: next } });
    expect((await call(`${deck.url}/plans`)).body).toMatchObject({ mine: null, principal: null });
  });

  it('answers a conditional GET as express does: If-None-Match * is 304 with no body', async () => {
    // Over node's own client: fetch adds Cache-Control: no-cache to a conditional request, which makes it unconditional.
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      get(`${deck.url}/plans`, { headers: { 'if-none-match': '*' } }, (r) => {
        let body = '';
        r.on('data', (c: Buffer) => (body += c.toString()));
        r.on('end', () => resolve({ status: r.statusCode!, body }));
      }).on('error', reject);
    });
    expect(res).toEqual({ status: 304, body: '' });
  });
});

describe('utcDay', () => {
  it('names the UTC day of each instant, asked in any order', () => {
    const day = 86_400_000;
    const t = Date.UTC(2025, 2, 1, 23, 59, 59, 999);
    expect([utcDay(t), utcDay(t + 1), utcDay(t), utcDay(t - day), utcDay(t + 1 + day)]).toEqual(['2025-03-01', '2025-03-02', '2025-03-01', '2025-02-28', '2025-03-03']);
    expect(utcDay(-1)).toBe('1969-12-31');
  });
});
