import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY } from '../tools/registry.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';

let deck: TestDeck;
let own: string;

beforeAll(async () => {
  deck = await testDeck();
  own = new URL(deck.url).origin;
});
afterAll(() => deck.stop());

const FOREIGN = 'https://elsewhere.example';
const jsonRoutes = REGISTRY.filter((t) => t.rest?.method === 'POST' && t.rest.body !== 'none').map((t) => t.rest!.path);

const cookieOf = (who: { session: string }) => ({ cookie: `deck_session=${who.session}` });
/** The key still signs in as its principal: nothing rotated it. */
const keyWorks = async (key: string) => (await call(`${deck.url}/me`, { headers: { authorization: `Bearer ${key}` } })).status === 200;

describe('JSON routes take only JSON', () => {
  it.each(jsonRoutes)('POST %s answers 415 naming content-type for text, a form or no content type, anonymous and signed in', async (path) => {
    const me = await signedIn(deck.url, `plain_${jsonRoutes.indexOf(path)}`);
    for (const headers of [{ 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }, { 'content-type': '' }]) {
      for (const auth of [{}, me.bearer]) {
        const res = await fetch(`${deck.url}${path}`, { method: 'POST', headers: { ...headers, ...auth }, body: '{"confirm":"rotate"}' });
        expect(res.status, `${path} ${headers['content-type']}`).toBe(415);
        expect(await res.json()).toEqual({
          ok: false,
          error: 'unsupported_media_type',
          message: 'send the body as content-type: application/json',
          field: 'content-type',
          expected: 'application/json',
        });
      }
    }
    expect(await keyWorks(me.key)).toBe(true);
  });

  it('reads application/json with its charset and the +json types', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/merge-patch+json', 'Application/JSON']) {
      const res = await call(`${deck.url}/login`, { raw: '{"key":"deck_live_nobody"}', headers: { 'content-type': type } });
      expect(res.status, type).toBe(401);
      expect(res.body.error, type).toBe('key_refused');
    }
  });
});

describe('writes a browser makes on the cookie', () => {
  it("refuses a rotation a foreign page sends as text/plain with the cookie (403), and the key keeps working", async () => {
    const me = await signedIn(deck.url, 'victim');
    const res = await fetch(`${deck.url}/me/key`, { method: 'POST', headers: { 'content-type': 'text/plain', origin: FOREIGN, ...cookieOf(me) }, body: '{"confirm":"rotate"}' });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ ok: false, error: 'origin_refused', message: `a page of ${FOREIGN} may not write with the deck's cookie`, field: 'origin' });
    // The same request as JSON is refused as well: the Origin decides before the body is read.
    expect((await call(`${deck.url}/me/key`, { body: { confirm: 'rotate' }, headers: { origin: FOREIGN, ...cookieOf(me) } })).status).toBe(403);
    expect(await keyWorks(me.key)).toBe(true);
  });

  it('refuses every kind of write from a foreign page with the cookie: a mark placed, a mark removed, a sign-out', async () => {
    const me = await signedIn(deck.url, 'cautious');
    const placed = await call(`${deck.url}/me/marks`, { body: { market: 'NQ', kind: 'level', price: 18000 }, headers: me.bearer });
    expect(placed.status).toBe(200);
    const id = placed.body.mark.id as string;
    const foreign = { origin: FOREIGN, ...cookieOf(me) };
    expect((await call(`${deck.url}/me/marks`, { body: { market: 'NQ', kind: 'level', price: 1 }, headers: foreign })).status).toBe(403);
    expect((await call(`${deck.url}/me/marks?id=${id}`, { method: 'DELETE', headers: foreign })).status).toBe(403);
    expect((await call(`${deck.url}/logout`, { method: 'POST', headers: foreign })).status).toBe(403);
    const marks = await call(`${deck.url}/me/marks`, { headers: cookieOf(me) });
    expect(marks.body.marks.map((m: { id: string }) => m.id)).toEqual([id]);
    // The session was not ended.
    expect((await call(`${deck.url}/me`, { headers: cookieOf(me) })).status).toBe(200);
  });

  it("takes the deck's own pages' writes on the cookie", async () => {
    const me = await signedIn(deck.url, 'homebody');
    const res = await call(`${deck.url}/me/key`, { body: { confirm: 'rotate' }, headers: { origin: own, ...cookieOf(me) } });
    expect(res.status).toBe(200);
    expect(await keyWorks(me.key)).toBe(false);
  });

  it('reads the Referer when a browser leaves the Origin out: foreign is refused, the deck\'s own is taken', async () => {
    const me = await signedIn(deck.url, 'referred');
    const mark = { market: 'ES', kind: 'level', price: 5000 };
    const foreign = await call(`${deck.url}/me/marks`, { body: mark, headers: { referer: `${FOREIGN}/page`, ...cookieOf(me) } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toContain(FOREIGN);
    expect((await call(`${deck.url}/me/marks`, { body: mark, headers: { referer: 'not a url', ...cookieOf(me) } })).status).toBe(403);
    expect((await call(`${deck.url}/me/marks`, { body: mark, headers: { referer: `${own}/join`, ...cookieOf(me) } })).status).toBe(200);
  });

  it('refuses the opaque Origin null (a sandboxed frame, a file)', async () => {
    const me = await signedIn(deck.url, 'sandboxed');
    expect((await call(`${deck.url}/me/marks`, { body: { market: 'ES', kind: 'level', price: 1 }, headers: { origin: 'null', ...cookieOf(me) } })).status).toBe(403);
  });

  it('takes the cookie from a client that is no page (no Origin, no Referer), as curl with a cookie jar', async () => {
    const me = await signedIn(deck.url, 'curler');
    expect((await call(`${deck.url}/me/marks`, { body: { market: 'ES', kind: 'level', price: 5000 }, headers: cookieOf(me) })).status).toBe(200);
  });

  it('takes a bearer from any Origin: a browser never sends one on its own', async () => {
    const me = await signedIn(deck.url, 'bearing');
    const res = await call(`${deck.url}/me/marks`, { body: { market: 'ES', kind: 'level', price: 5000 }, headers: { origin: FOREIGN, ...me.bearer, ...cookieOf(me) } });
    expect(res.status).toBe(200);
  });

  it('takes reads with the cookie from any Origin (they change nothing)', async () => {
    const me = await signedIn(deck.url, 'reader');
    expect((await call(`${deck.url}/me`, { headers: { origin: FOREIGN, ...cookieOf(me) } })).status).toBe(200);
  });

  it('takes the Origins on DECK_ORIGINS besides its own, and no other', async () => {
    const listed = await testDeck({ DECK_ORIGINS: 'https://app.example' });
    try {
      const me = await signedIn(listed.url, 'listed');
      const mark = { market: 'YM', kind: 'level', price: 40000 };
      const from = (origin: string) => call(`${listed.url}/me/marks`, { body: mark, headers: { origin, ...cookieOf(me) } });
      expect((await from('https://app.example')).status).toBe(200);
      expect((await from(new URL(listed.url).origin)).status).toBe(200);
      expect((await from('https://app.example.evil')).status).toBe(403);
    } finally {
      await listed.stop();
    }
  });
});
