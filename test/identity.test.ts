import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, spawnDeck, testDeck, type TestDeck } from './support/deck.js';
import { fromAddress } from './support/from-address.js';
import { call } from './support/http.js';

let deck: TestDeck;
beforeAll(async () => {
  // Limits high enough that this file's joins (all from one address) never meet them.
  deck = await testDeck({ DECK_JOIN_PER_CLIENT: '50', DECK_JOIN_PER_DAY: '400' });
});
afterAll(() => deck.stop());

const joinAs = (body: unknown, url = deck.url) => call(`${url}/join`, { body });
/** The fields a 422 names (a field failing two parts of its rule is named once here). */
const fieldsOf = (body: { problems?: { field: string }[] }) => [...new Set((body.problems ?? []).map((p) => p.field))];

describe('GET /join', () => {
  it('answers the limits as configured, the name rule and the wallet rule', async () => {
    const { status, body } = await call(`${deck.url}/join`);
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(body.limits).toEqual({ per_client_per_day: 50, everyone_per_day: 400 });
    expect(body.name_rule).toMatch(/3 to 32/);
    expect(typeof body.wallet).toBe('string');
  });

  it('gives a browser asking for HTML the onboarding page, and anyone asking for JSON the rules', async () => {
    const page = await fetch(`${deck.url}/join`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toMatch(/<form id="join-form"/);
    const json = await fetch(`${deck.url}/join`, { headers: { accept: 'application/json' } });
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('POST /join', () => {
  it('answers 201 with the principal and a key carrying the prefix, shown once; the name is lower-cased', async () => {
    const { status, body } = await joinAs({ name: 'Alice' });
    expect(status).toBe(201);
    expect(body.ok).toBe(true);
    expect(body.principal).toMatchObject({ name: 'alice', wallet: null });
    expect(body.principal.agent_id).toEqual(expect.any(String));
    expect(body.key).toMatch(/^deck_live_[A-Za-z0-9_-]{40,}$/);
    expect(body.shown_once).toBe(true);
    const me = await call(`${deck.url}/me`, { headers: { authorization: `Bearer ${body.key}` } });
    expect(me.body.principal.name).toBe('alice');
  });

  it('refuses a name outside the rule with 422 naming name', async () => {
    for (const name of ['ab', 'x'.repeat(33), 'bad name', 'caf\u00e9', 'dots.not.allowed', '', 42]) {
      const { status, body } = await joinAs({ name });
      expect(status, String(name)).toBe(422);
      expect(fieldsOf(body), String(name)).toEqual(['name']);
    }
    const missing = await joinAs({});
    expect(missing.status).toBe(422);
    expect(fieldsOf(missing.body)).toEqual(['name']);
  });

  it('takes a name at the edges of the rule: 3 and 32 characters of a-z, 0-9, - and _', async () => {
    expect((await joinAs({ name: 'a-_' })).status).toBe(201);
    expect((await joinAs({ name: 'z9'.repeat(16) })).status).toBe(201);
  });

  it('refuses reserved house names, in any case, with 422 naming name', async () => {
    for (const name of ['house', 'Admin', 'studio', 'MCP']) {
      const { status, body } = await joinAs({ name });
      expect(status, name).toBe(422);
      expect(fieldsOf(body), name).toEqual(['name']);
    }
  });

  it('answers 409 for a name taken, whatever its case on input', async () => {
    expect((await joinAs({ name: 'bob' })).status).toBe(201);
    for (const name of ['bob', 'BOB']) {
      const { status, body } = await joinAs({ name });
      expect(status).toBe(409);
      expect(body.error).toBe('name_taken');
    }
  });

  it('mints one principal when the same name is joined many times at once', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => joinAs({ name: 'racer' })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it('validates the wallet as an address (422 naming wallet) and stores a valid one checksummed', async () => {
    const lower = '0x52908400098527886e0f7030069857d2e4169ee7';
    for (const wallet of ['not-a-wallet', '0x1234', `${lower}00`, '0x52908400098527886E0F7030069857D2e4169EE7', 7]) {
      const { status, body } = await joinAs({ name: 'walleter', wallet });
      expect(status, String(wallet)).toBe(422);
      expect(fieldsOf(body), String(wallet)).toEqual(['wallet']);
    }
    const { status, body } = await joinAs({ name: 'walleter', wallet: lower });
    expect(status).toBe(201);
    expect(body.principal.wallet).toBe(getAddress(lower));
    expect(body.principal.wallet).not.toBe(lower);
    const me = await call(`${deck.url}/me`, { headers: { authorization: `Bearer ${body.key}` } });
    expect(me.body.principal.wallet).toBe(getAddress(lower));
  });

  it('answers 400 for a body that is not JSON, an empty body, or JSON that is not an object', async () => {
    for (const raw of ['name=carol', '{"name":', '', '[]', '"carol"', 'null']) {
      const { status, body } = await call(`${deck.url}/join`, { method: 'POST', raw });
      expect(status, JSON.stringify(raw)).toBe(400);
      expect(body.ok).toBe(false);
    }
    expect((await joinAs({ name: 'carol' })).status).toBe(201);
  });

  it('answers 422 for an unknown field, naming it', async () => {
    const { status, body } = await joinAs({ name: 'dave', tier: 'house' });
    expect(status).toBe(422);
    expect(body.message).toMatch(/tier/);
    expect((await joinAs({ name: 'dave' })).status).toBe(201);
  });
});

describe('POST /join limits', () => {
  it('answers 429 past the per-client limit and past the everyone limit, and refused joins use no count', async () => {
    const limited = await testDeck({ DECK_JOIN_PER_CLIENT: '2', DECK_JOIN_PER_DAY: '3' });
    const [one, two, three] = ['127.0.0.2', '127.0.0.3', '127.0.0.4'].map(fromAddress);
    try {
      expect((await one!.call(`${limited.url}/join`)).body).toMatchObject({ limits: { per_client_per_day: 2, everyone_per_day: 3 } });
      // Refusals before minting leave the day's counts as they were.
      expect((await one!.call(`${limited.url}/join`, { name: 'no' })).status).toBe(422);
      expect((await one!.call(`${limited.url}/join`, { name: 'house' })).status).toBe(422);
      expect((await one!.call(`${limited.url}/join`, { name: 'first' })).status).toBe(201);
      expect((await one!.call(`${limited.url}/join`, { name: 'first' })).status).toBe(409);
      expect((await one!.call(`${limited.url}/join`, { name: 'second' })).status).toBe(201);
      const perClient = await one!.call(`${limited.url}/join`, { name: 'third' });
      expect(perClient.status).toBe(429);
      expect(perClient.body).toMatchObject({ ok: false, error: 'join_limit' });
      expect((perClient.body as { message: string }).message).toMatch(/one client/);
      // Until the next UTC day, in the body and in Retry-After.
      const untilTomorrow = (perClient.body as { retry_after_s: number }).retry_after_s;
      expect(untilTomorrow).toBeGreaterThan(0);
      expect(untilTomorrow).toBeLessThanOrEqual(86_400);
      expect(Math.abs(Date.now() / 1000 + untilTomorrow - Math.ceil(Date.now() / 86_400_000) * 86_400)).toBeLessThan(5);
      expect(perClient.headers['retry-after']).toBe(String(untilTomorrow));

      expect((await two!.call(`${limited.url}/join`, { name: 'third' })).status).toBe(201);
      const everyone = await three!.call(`${limited.url}/join`, { name: 'fourth' });
      expect(everyone.status).toBe(429);
      expect((everyone.body as { message: string }).message).toMatch(/everyone/);
    } finally {
      await Promise.all([one, two, three].map((c) => c!.close()));
      await limited.stop();
    }
  });

  it('lets no more than the per-client limit through when joins arrive at once', async () => {
    const limited = await testDeck({ DECK_JOIN_PER_CLIENT: '2' });
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => joinAs({ name: `rush-${i}` }, limited.url)));
      expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 429, 429, 429, 429]);
    } finally {
      await limited.stop();
    }
  });
});

describe('a custom key prefix', () => {
  it('mints keys with DECK_KEY_PREFIX, and such a key signs in and works as the bearer', async () => {
    const acme = await testDeck({ DECK_KEY_PREFIX: 'acme_key_' });
    try {
      const { status, body } = await joinAs({ name: 'prefixed' }, acme.url);
      expect(status).toBe(201);
      expect(body.key).toMatch(/^acme_key_/);
      expect(body.key).not.toMatch(/^deck_live_/);
      const login = await call(`${acme.url}/login`, { body: { key: body.key } });
      expect(login.status).toBe(200);
      expect((await call(`${acme.url}/me`, { headers: { authorization: `Bearer ${body.key}` } })).body.principal.name).toBe('prefixed');
    } finally {
      await acme.stop();
    }
  });
});

describe("another principal's record", () => {
  it('answers 404 for a mark id that is not the caller’s, and leaves the mark where it was', async () => {
    const a = await signedIn(deck.url, 'marker-a');
    const b = await signedIn(deck.url, 'marker-b');
    const placed = await call(`${deck.url}/me/marks`, { headers: a.bearer, body: { market: 'NQ', kind: 'level', price: 21000 } });
    expect(placed.status).toBe(200);
    const id = placed.body.mark.id as string;

    const removed = await call(`${deck.url}/me/marks?id=${id}`, { method: 'DELETE', headers: b.bearer });
    expect(removed.status).toBe(404);
    expect(removed.body.ok).toBe(false);
    expect((await call(`${deck.url}/me/marks`, { headers: b.bearer })).body.marks).toEqual([]);
    expect((await call(`${deck.url}/me/marks`, { headers: a.bearer })).body.marks.map((m: { id: string }) => m.id)).toEqual([id]);

    // The owner can remove it, so the 404 was about whose mark it is.
    expect((await call(`${deck.url}/me/marks?id=${id}`, { method: 'DELETE', headers: a.bearer })).status).toBe(200);
  });
});

/** Every file under `dir`, read as text. */
async function filesUnder(dir: string): Promise<{ path: string; text: string }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  return Promise.all(files.map(async (path) => ({ path, text: await readFile(path, 'latin1') })));
}

describe('keys and session tokens are never kept in clear', () => {
  it('leaves no key, no rotated key and no session token in any data file or in the log', async () => {
    const data = await mkdtemp(join(tmpdir(), 'deck-secrets-'));
    const spawned = await spawnDeck({ DECK_DATA: data });
    let log = '';
    spawned.child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    try {
      const first = await signedIn(spawned.url, 'secretive', '0x52908400098527886e0f7030069857d2e4169ee7');
      const bearerKey = { authorization: `Bearer ${first.key}` };
      expect((await call(`${spawned.url}/me`, { headers: bearerKey })).status).toBe(200);
      // A refused key must not reach the log either.
      const wrong = `deck_live_${'W'.repeat(43)}`;
      expect((await call(`${spawned.url}/login`, { body: { key: wrong } })).status).toBe(401);
      const rotated = await call(`${spawned.url}/me/key`, { headers: first.bearer, body: { confirm: 'rotate' } });
      expect(rotated.status).toBe(200);
      const second = await call(`${spawned.url}/login`, { body: { key: rotated.body.api_key } });
      expect(second.status).toBe(200);
      const secondSession = /deck_session=([^;]+)/.exec(second.headers.get('set-cookie') ?? '')![1]!;
      expect((await call(`${spawned.url}/logout`, { method: 'POST', headers: { authorization: `Bearer ${secondSession}` } })).status).toBe(200);

      const secrets = [first.key, first.session, rotated.body.api_key as string, secondSession, wrong];
      // Also the random parts alone, in case a prefix were stripped before keeping.
      const parts = secrets.map((s) => s.replace(/^(deck_live_|ds_)/, ''));
      const files = await filesUnder(data);
      expect(files.map((f) => f.path).join('\n')).toMatch(/accounts\.json/);
      for (const f of files) for (const s of [...secrets, ...parts]) expect(f.text.includes(s), `${f.path} holds a secret`).toBe(false);

      expect(log).toMatch(/"event":"join"/);
      expect(log).toMatch(/"event":"key_rotated"/);
      for (const s of [...secrets, ...parts]) expect(log.includes(s), 'the log holds a secret').toBe(false);
    } finally {
      spawned.child.kill('SIGTERM');
      await spawned.exited;
      await rm(data, { recursive: true, force: true });
    }
  });
});
