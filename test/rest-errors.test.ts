import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY } from '../tools/registry.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';

let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  deck = await testDeck();
  me = await signedIn(deck.url, 'errant');
});
afterAll(() => deck.stop());

const jsonRoutes = REGISTRY.filter((t) => t.rest?.method === 'POST' && t.rest.body !== 'none').map((t) => t.rest!.path);

describe('one error form for every refusal', () => {
  it.each(jsonRoutes)('POST %s answers 400 not_json for a body that is not JSON', async (path) => {
    const res = await call(`${deck.url}${path}`, { raw: '{"broken":', headers: me.bearer });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body).toMatchObject({ ok: false, error: 'not_json' });
    expect(typeof res.body.message).toBe('string');
  });

  it.each(jsonRoutes)('POST %s answers 400 for a JSON body that is not an object', async (path) => {
    const res = await call(`${deck.url}${path}`, { raw: '[1,2]', headers: me.bearer });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('not_json');
  });

  it('every session route answers 401 with the sign-in message', async () => {
    const sessionRoutes = REGISTRY.filter((t) => t.rest && t.access === 'session');
    expect(sessionRoutes.length).toBeGreaterThan(5);
    for (const t of sessionRoutes) {
      const res = await call(`${deck.url}${t.rest!.path}`, { method: t.rest!.method, ...(t.rest!.method === 'POST' ? { body: {} } : {}) });
      expect(res.status, t.name).toBe(401);
      expect(res.body, t.name).toEqual({ ok: false, error: 'unauthorized', message: 'sign in with POST /login first' });
    }
  });

  it('an unknown route is a JSON 404', async () => {
    const res = await call(`${deck.url}/nowhere`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ ok: false, error: 'not_found' });
  });

  it('a body over the cap is 413 in the same form', async () => {
    const res = await call(`${deck.url}/me/marks`, { raw: JSON.stringify({ note: 'x'.repeat(1_100_000) }), headers: me.bearer });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ ok: false, error: 'too_large' });
  });
});
