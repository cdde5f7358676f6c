import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgBackend } from '../store/pg/pg-backend.js';
import { signedIn, spawnDeck, type SpawnedDeck } from './support/deck.js';
import { call } from './support/http.js';
import { freshDatabase } from './support/postgres.js';
import { until } from './support/wait.js';

// Three decks, each in its own process with a data directory of its own, on one PostgreSQL database, hit in turn:
// the limits hold across them, a write acknowledged by one is read by the next request at any other, the ledgers stay
// one chain, and every deck answers the same request with the same bytes.

const EMA_CROSS =
  'BTC on the 1 minute chart, long and short, around the clock: go long when the 9 EMA crosses above the 21 EMA, go short when the 9 EMA crosses below the 21 EMA. Stop 2 ATR(14). Target 2R.';
/** The house's joins a day: the principals the tests sign in first, and four more. */
const JOIN_PER_DAY = 9;
const LOGIN_REFUSALS = 4;

let database: string;
let decks: SpawnedDeck[];
type Signed = Awaited<ReturnType<typeof signedIn>>;
const who: Record<'readerWriter' | 'racer' | 'caster' | 'meterReader' | 'sameBytes', Signed> = {} as never;
const dirs: string[] = [];
/** The deck the i-th request of a round goes to. */
const at = (i: number) => decks[i % decks.length]!.url;

beforeAll(async () => {
  database = await freshDatabase();
  for (let i = 0; i < 3; i++) dirs.push(await mkdtemp(join(tmpdir(), 'deck-many-')));
  // All three start at once: the migrations run once, under their lock.
  decks = await Promise.all(
    dirs.map((dir) => spawnDeck({ DECK_DATA: dir, DECK_DATABASE_URL: database, DECK_JOIN_PER_CLIENT: '1000', DECK_JOIN_PER_DAY: String(JOIN_PER_DAY), DECK_LOGIN_REFUSALS: String(LOGIN_REFUSALS) })),
  );
  for (const [i, name] of (['readerWriter', 'racer', 'caster', 'meterReader', 'sameBytes'] as const).entries()) who[name] = await signedIn(at(i), name.toLowerCase());
}, 90_000);
afterAll(async () => {
  await Promise.all((decks ?? []).map((d) => d.stop()));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('three decks on one database', () => {
  it('says it runs on PostgreSQL, never the database URL or its password', () => {
    const password = new URL(database).password;
    for (const deck of decks) {
      expect(deck.before).toContain('"store":"postgres"');
      expect(deck.before).not.toContain(password);
      expect(deck.before).not.toContain(database);
    }
  });

  it('migrated the schema once, however many decks started together', async () => {
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT version FROM deck_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual([1, 2]);
    } finally {
      await client.end();
    }
  });

  it('sees at every deck the write another acknowledged, at the very next request', async () => {
    const me = who.readerWriter;
    for (let i = 0; i < 6; i++) {
      const added = await call(`${at(i)}/me/marks`, { body: { market: 'ES', kind: 'level', price: 5000 + i }, headers: me.bearer });
      expect(added.status).toBe(200);
      const listed = await call(`${at(i + 1)}/me/marks?market=ES`, { headers: me.bearer });
      expect(listed.body.marks.map((m: { price: number }) => m.price)).toEqual(Array.from({ length: i + 1 }, (_, j) => 5000 + j));
    }
  });

  it('holds the marks cap exactly under 50 adds at once spread over the three decks', async () => {
    const me = who.racer;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call(`${at(i)}/me/marks`, { body: { market: 'NQ', kind: 'level', price: 1000 + i }, headers: me.bearer })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 409)).toHaveLength(30);
    const kept = answers.filter((a) => a.status === 200).map((a) => a.body.mark.id).sort();
    for (const deck of decks) {
      const listed = await call(`${deck.url}/me/marks?market=NQ`, { headers: me.bearer });
      expect(listed.body.marks.map((m: { id: string }) => m.id).sort()).toEqual(kept);
    }
  });

  it("holds the house's join limit across the decks, and the joined sign in at any deck", async () => {
    const before = await joinedCount();
    expect(before).toBe(5);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call(`${at(i)}/join`, { body: { name: `joiner_${i}` } })),
    );
    const joined = answers.filter((a) => a.status === 201);
    expect(joined).toHaveLength(JOIN_PER_DAY - before);
    expect(answers.filter((a) => a.status === 429).every((a) => a.body.error === 'join_limit')).toBe(true);
    expect(answers.filter((a) => a.status !== 201 && a.status !== 429)).toEqual([]);
    for (const [i, j] of joined.entries()) expect((await call(`${at(i + 1)}/login`, { body: { key: j.body.key } })).status).toBe(200);
  });

  it('lets one forge cast run per principal across the decks: a place held elsewhere refuses it (429), then it casts', async () => {
    const caster = who.caster;
    const id = await principalId('caster');
    // Another deck casting for this principal: it holds the principal's one forge_cast place in the database.
    const elsewhere = await pgBackend(database);
    try {
      const release = await elsewhere.hold(`forge_cast|${id}`, 1, false);
      expect(release).not.toBeNull();
      for (const deck of decks) {
        const refused = await call(`${deck.url}/forge`, { body: { intent: EMA_CROSS }, headers: caster.bearer });
        expect(refused.status).toBe(429);
        expect(refused.body).toMatchObject({ error: 'busy', guard: 'forge_cast' });
      }
      await release!();
      expect((await call(`${decks[0]!.url}/forge`, { body: { intent: EMA_CROSS }, headers: caster.bearer })).status).toBe(200);
    } finally {
      await elsewhere.close();
    }
  });

  it('lets one of two decks casting for one principal at once win; the other is refused while it casts', async () => {
    const caster = who.caster;
    // Hold the forges row, so the first deck's cast waits inside its guard place (it writes the forge there) while
    // the second deck's cast for the same principal arrives.
    const blocker = new pg.Client({ connectionString: database });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query("SELECT version FROM deck_docs WHERE name = 'forges' FOR UPDATE");
      const first = call(`${decks[0]!.url}/forge`, { body: { intent: EMA_CROSS }, headers: caster.bearer });
      // Until the first deck holds the principal's forge_cast place (an advisory lock keyed by the place's hash).
      const place = `forge_cast|${await principalId('caster')}`;
      const held = async () =>
        (
          await blocker.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid::bigint = (hashtext($1)::bigint + 4294967296) % 4294967296",
            [place],
          )
        ).rows[0]!.n;
      await until(held, (n) => n === 1);
      const second = await call(`${decks[1]!.url}/forge`, { body: { intent: EMA_CROSS }, headers: caster.bearer });
      expect(second.status).toBe(429);
      expect(second.body).toMatchObject({ error: 'busy', guard: 'forge_cast' });
      await blocker.query('COMMIT');
      expect((await first).status).toBe(200);
    } finally {
      await blocker.end();
    }
    expect((await call(`${decks[1]!.url}/forge`, { body: { intent: EMA_CROSS }, headers: caster.bearer })).status).toBe(200);
  });

  it("writes no two studio moves over the same revision, whichever decks make them at once", async () => {
    const mover = who.racer;
    const answers = await Promise.all(
      Array.from({ length: 9 }, (_, i) => call(`${at(i)}/studio/state`, { body: { strategy: 'raced', action: 'words', text: `${EMA_CROSS} (${i})` }, headers: mover.bearer })),
    );
    expect(answers.filter((a) => a.status !== 200 && a.status !== 409)).toEqual([]);
    const revs = answers.filter((a) => a.status === 200).map((a) => a.body.record.rev as number).sort((a, b) => a - b);
    expect(revs.length).toBeGreaterThan(0);
    expect(revs).toEqual(revs.map((_, i) => i + 1));
    for (const deck of decks) {
      const now = await call(`${deck.url}/studio/state?strategy=raced`, { headers: mover.bearer });
      expect(now.body.record.rev).toBe(revs.length);
    }
  });

  it('keeps every ledger one unbroken chain, with the same head at every deck', async () => {
    const reader = who.meterReader;
    await Promise.all(Array.from({ length: 30 }, (_, i) => call(`${at(i)}/meter`, { body: { action: 'forecast' }, headers: reader.bearer })));
    const heads = await Promise.all(decks.map(async (d) => (await call(`${d.url}/plane/ledgers`)).body.ledgers));
    expect(heads[1]).toEqual(heads[0]);
    expect(heads[2]).toEqual(heads[0]);
    const meter = heads[0].find((l: { name: string }) => l.name === 'meter');
    expect(meter.length).toBeGreaterThanOrEqual(30);
    for (const deck of decks) {
      const verify = await call(`${deck.url}/plane/ledgers/meter/verify`, { headers: reader.bearer });
      expect(verify.body).toMatchObject({ intact: true, checked: meter.length, head: meter.head });
      // Each deck held the meter's head for its own appends, and says for how long.
      const metrics = await (await fetch(`${deck.url}/metrics`)).text();
      const held = Number(/^deck_ledger_lock_seconds_count\{ledger="meter"\} (\d+)$/m.exec(metrics)?.[1]);
      expect(held).toBeGreaterThan(0);
      // As the database counts it, from the head's update to the entries' insert: some time, and far under a second.
      const seconds = Number(/^deck_ledger_lock_seconds_sum\{ledger="meter"\} (\S+)$/m.exec(metrics)?.[1]);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds / held).toBeLessThan(1);
    }
  });

  it('answers the same request with the same bytes at every deck', async () => {
    const me = who.sameBytes;
    for (let i = 0; i < 3; i++) await call(`${at(i)}/me/marks`, { body: { market: 'BTC', kind: 'zone', price: 60000 + i, price2: 61000 + i, note: `z${i}` }, headers: me.bearer });
    for (const path of ['/me/marks', '/me/marks?market=BTC', '/meter']) {
      const bodies = await Promise.all(decks.map(async (d) => (await fetch(`${d.url}${path}`, { headers: me.bearer })).text()));
      expect(bodies[1], path).toBe(bodies[0]);
      expect(bodies[2], path).toBe(bodies[0]);
    }
  });

  // Last: it rests this test's address at every deck.
  it('counts refused keys at every deck: an address refused at the others rests at the next deck it tries', async () => {
    for (let i = 0; i < LOGIN_REFUSALS; i++) {
      const refused = await call(`${at(i)}/login`, { body: { key: `deck_live_${'0'.repeat(40)}${i}` } });
      expect(refused.status).toBe(401);
    }
    for (const deck of decks) {
      const resting = await call(`${deck.url}/login`, { body: { key: who.caster.key } });
      expect(resting.status).toBe(429);
      expect(resting.body.error).toBe('login_resting');
    }
  });
});

/** How many principals joined so far. */
async function joinedCount(): Promise<number> {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    const { rows } = await client.query<{ doc: string }>("SELECT doc FROM deck_docs WHERE name = 'accounts'");
    return Object.keys((JSON.parse(rows[0]!.doc) as { accounts: object }).accounts).length;
  } finally {
    await client.end();
  }
}

/** A principal's id, as the store keeps it (the guards hold places per principal id, which no route shows). */
async function principalId(name: string): Promise<string> {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    const { rows } = await client.query<{ doc: string }>("SELECT doc FROM deck_docs WHERE name = 'accounts'");
    const accounts = Object.values((JSON.parse(rows[0]!.doc) as { accounts: Record<string, { id: string; name: string }> }).accounts);
    return accounts.find((a) => a.name === name)!.id;
  } finally {
    await client.end();
  }
}
