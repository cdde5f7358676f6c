import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { doorServer, type DoorServer } from './fixtures/door-server.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';

const TOKEN = 'door-test-token';

let door: DoorServer;
let deck: TestDeck;
beforeAll(async () => {
  door = await doorServer('deck_live_');
  deck = await testDeck({ DECK_DOOR_URL: door.url, DECK_DOOR_TOKEN: TOKEN });
});
afterEach(() => {
  door.mode = 'answer';
  door.prefix = 'deck_live_';
});
afterAll(async () => {
  await deck.stop();
  await door.close();
});

const joinAs = (name: string, url = deck.url) => call(`${url}/join`, { body: { name } });
const asBearer = (credential: string) => ({ authorization: `Bearer ${credential}` });
const rotate = (bearer: Record<string, string>) => call(`${deck.url}/me/key`, { body: { confirm: 'rotate' }, headers: bearer });

/** The names the deck has recorded, read from its accounts file. */
const recorded = async (dataDir: string): Promise<string[]> => {
  const doc = JSON.parse(await readFile(join(dataDir, 'accounts.json'), 'utf8')) as { accounts: Record<string, { name: string }> };
  return Object.values(doc.accounts).map((a) => a.name);
};

describe('a deck whose identity door is a remote HTTP door (DECK_DOOR_URL)', () => {
  it('joins through the door: the key is the one the door minted, and the deck carries its token', async () => {
    const seenBefore = door.seen.length;
    const { status, body } = await joinAs('remote');
    expect(status).toBe(201);
    expect(body.key).toMatch(/^deck_live_/);
    expect(door.names()).toContain('remote');
    const asked = door.seen.slice(seenBefore);
    expect(asked.map((r) => r.path)).toEqual(['/principals']);
    expect(asked[0]!.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('signs in and verifies bearers at the door, whose verdict alone is trusted', async () => {
    const s = await signedIn(deck.url, 'verified');
    expect(door.seen.at(-1)!.path).toBe('/verify');
    expect((await call(`${deck.url}/me`, { headers: asBearer(s.key) })).body.principal.name).toBe('verified');
    // A key the door does not know is refused, whatever it looks like.
    expect((await call(`${deck.url}/login`, { body: { key: `deck_live_${'q'.repeat(43)}` } })).status).toBe(401);
  });

  it('answers 409 when the door already holds the name, though the deck had never seen it', async () => {
    const direct = await call(`${door.url}/principals`, { body: { name: 'elsewhere', wallet: null } });
    expect(direct.status).toBe(201);
    const { status, body } = await joinAs('elsewhere');
    expect(status).toBe(409);
    expect(body.error).toBe('name_taken');
    expect(await recorded(deck.dataDir)).not.toContain('elsewhere');
  });

  it('rotates through the door: the new key signs in, the old key and the other sessions are refused, the rotating one stays', async () => {
    const s = await signedIn(deck.url, 'turner');
    const other = await call(`${deck.url}/login`, { body: { key: s.key } });
    const otherSession = { authorization: `Bearer ${/deck_session=([^;]+)/.exec(other.headers.get('set-cookie') ?? '')![1]}` };
    const res = await rotate(s.bearer);
    expect(res.status).toBe(200);
    expect(door.seen.at(-1)!.path).toMatch(/^\/principals\/[^/]+\/key$/);
    expect(res.body.api_key).toMatch(/^deck_live_/);
    expect((await call(`${deck.url}/me`, { headers: asBearer(s.key) })).status).toBe(401);
    expect((await call(`${deck.url}/me`, { headers: otherSession })).status).toBe(401);
    expect((await call(`${deck.url}/me`, { headers: s.bearer })).status).toBe(200);
    expect((await call(`${deck.url}/login`, { body: { key: res.body.api_key } })).status).toBe(200);
  });

  it('answers 502 naming the door when it refuses a join (HTTP 500 or an answer that is not JSON), recording nothing', async () => {
    for (const mode of ['refuse', 'garbage'] as const) {
      door.mode = mode;
      const { status, body } = await joinAs(`refused-${mode}`);
      expect(status, mode).toBe(502);
      expect(body).toMatchObject({ ok: false, error: 'upstream_refused', upstream: 'identity door' });
    }
    door.mode = 'answer';
    expect(await recorded(deck.dataDir)).not.toContain('refused-refuse');
    expect((await joinAs('refused-refuse')).status).toBe(201);
  });

  it('answers 502 when the door mints a key without the deck\u2019s prefix, and shows that key nowhere', async () => {
    door.prefix = 'other_';
    const { status, body } = await joinAs('foreign');
    expect(status).toBe(502);
    expect(JSON.stringify(body)).not.toMatch(/other_/);
    expect(await recorded(deck.dataDir)).not.toContain('foreign');
  });

  it('answers 502 when the door refuses a rotation, and the key in hand keeps working', async () => {
    const s = await signedIn(deck.url, 'steady');
    for (const mode of ['refuse', 'garbage'] as const) {
      door.mode = mode;
      // With the key as bearer the door is asked to verify it first; refusing that is the door refusing too.
      expect((await rotate(asBearer(s.key))).status, mode).toBe(502);
      const bySession = await rotate(s.bearer);
      expect(bySession.status, mode).toBe(502);
      expect(bySession.body.upstream).toBe('identity door');
    }
    door.mode = 'answer';
    expect((await call(`${deck.url}/me`, { headers: asBearer(s.key) })).status).toBe(200);
    expect((await call(`${deck.url}/me`, { headers: s.bearer })).status).toBe(200);
  });
});

describe('a key presented on any route', () => {
  it('is read at the door: a door that refuses or answers nonsense is 502 there, as the document of this deck lists', async () => {
    const s = await signedIn(deck.url, 'presenting');
    const doc = await (await fetch(`${deck.url}/openapi.json`)).json();
    for (const mode of ['refuse', 'garbage'] as const) {
      door.mode = mode;
      // A route whose own run never asks the door, one that needs a session and one that needs none.
      for (const [path, method] of [['/me', 'get'], ['/catalogue', 'get']] as const) {
        const res = await call(`${deck.url}${path}`, { headers: asBearer(s.key) });
        expect([mode, path, res.status]).toEqual([mode, path, 502]);
        expect(res.body).toMatchObject({ error: 'upstream_refused', upstream: 'identity door' });
        expect(Object.keys(doc.paths[path][method].responses)).toEqual(expect.arrayContaining(['502', '503']));
      }
      // A session is the deck's own: the door is not asked.
      expect((await call(`${deck.url}/me`, { headers: s.bearer })).status).toBe(200);
    }
  });
});

describe('a door that cannot be reached', () => {
  it('answers 503 to join, login and rotation with nothing recorded; the name and the count stay free', async () => {
    const far = await doorServer('deck_live_');
    const lone = await testDeck({ DECK_DOOR_URL: far.url, DECK_JOIN_PER_CLIENT: '2' });
    try {
      const s = await signedIn(lone.url, 'early');
      await far.close();
      for (let i = 0; i < 3; i++) {
        const { status, body } = await joinAs('later', lone.url);
        expect(status).toBe(503);
        expect(body).toMatchObject({ ok: false, error: 'upstream_unreachable', upstream: 'identity door' });
      }
      expect((await call(`${lone.url}/login`, { body: { key: s.key } })).status).toBe(503);
      expect((await call(`${lone.url}/me/key`, { body: { confirm: 'rotate' }, headers: s.bearer })).status).toBe(503);
      expect(await recorded(lone.dataDir)).toEqual(['early']);
      // A session is the deck's own: it keeps working while the door is away. A key is the door's to read: 503.
      expect((await call(`${lone.url}/me`, { headers: s.bearer })).status).toBe(200);
      expect((await call(`${lone.url}/me`, { headers: asBearer(s.key) })).body).toMatchObject({ error: 'upstream_unreachable', upstream: 'identity door' });

      await far.reopen();
      // The name was never taken, and three failed joins used none of the day's two: 'early' and 'later' fit.
      expect((await joinAs('later', lone.url)).status).toBe(201);
      expect((await joinAs('latest', lone.url)).status).toBe(429);
      expect(far.names().sort()).toEqual(['early', 'later']);
      // The rotation that could not happen left the key as it was.
      expect((await call(`${lone.url}/me`, { headers: asBearer(s.key) })).status).toBe(200);
    } finally {
      await lone.stop();
      await far.close().catch(() => {});
    }
  });
});
