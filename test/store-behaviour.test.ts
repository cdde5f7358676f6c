import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config/env.js';
import type { Backend } from '../store/backend.js';
import { GENESIS } from '../store/chain.js';
import { openBackend } from '../store/open-backend.js';
import { FileLedger } from '../store/file-ledger.js';
import { ledgerLocks } from '../store/ledger-locks.js';
import { PgLedger } from '../store/pg/pg-ledger.js';
import { signedIn, testDeck } from './support/deck.js';
import { call } from './support/http.js';
import { freshDatabase } from './support/postgres.js';
import { until } from './support/wait.js';

// The store's behaviour, proven the same on both backends: JSON files under a data directory, and PostgreSQL. Each
// case opens a store of its own (a temporary directory, or a new database on the test server).

interface Where {
  dataDir: string;
  databaseUrl: string | null;
}

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const STORES: readonly { name: string; where: () => Promise<Where> }[] = [
  { name: 'JSON files', where: async () => ({ dataDir: await tempDir(), databaseUrl: null }) },
  { name: 'PostgreSQL', where: async () => ({ dataDir: await tempDir(), databaseUrl: await freshDatabase() }) },
];

/** Overwrites the `seq`th line of a ledger where the store keeps it with text that is not JSON, as damage would. */
async function tearLine(w: Where, name: string, seq: number): Promise<void> {
  if (w.databaseUrl) {
    const client = new pg.Client({ connectionString: w.databaseUrl });
    await client.connect();
    await client.query('UPDATE deck_ledger_entries SET line = $1 WHERE ledger = $2 AND seq = $3', ['{torn', name, seq]).finally(() => client.end());
    return;
  }
  const file = join(w.dataDir, `${name}.jsonl`);
  const lines = (await readFile(file, 'utf8')).split('\n');
  lines[seq - 1] = '{torn';
  await writeFile(file, lines.join('\n'));
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'deck-behaviour-'));
  dirs.push(dir);
  return dir;
}

interface Counter {
  n: number;
  log: string[];
}

interface Entry {
  n: number;
  note: string;
  at: number;
}

describe.each(STORES)('the store on $name', ({ where }) => {
  const opened: Backend[] = [];
  afterAll(() => Promise.all(opened.map((b) => b.close())));
  const open = async (w: Where) => {
    const b = await openBackend(w);
    opened.push(b);
    return b;
  };

  it('keeps a document update whole or not at all, and every one of many at once', async () => {
    const w = await where();
    const store = await open(w);
    const doc = await store.doc<Counter>('counter', () => ({ n: 0, log: [] }));
    expect(doc.data).toEqual({ n: 0, log: [] });
    await Promise.all(Array.from({ length: 30 }, (_, i) => doc.update((d) => void (d.n++, d.log.push(`w${i}`)))));
    await expect(
      doc.update((d) => {
        d.n = -1;
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(doc.data.n).toBe(30);
    const again = await (await open(w)).doc<Counter>('counter', () => ({ n: 0, log: [] }));
    expect(again.data).toEqual(doc.data);
    expect(again.data.log).toEqual(Array.from({ length: 30 }, (_, i) => `w${i}`));
  });

  it('answers what the update returned, decided on the document as it is when the update runs', async () => {
    const store = await open(await where());
    const doc = await store.doc<Counter>('counter', () => ({ n: 0, log: [] }));
    const answers = await Promise.all(Array.from({ length: 10 }, () => doc.update((d) => ++d.n)));
    expect(answers.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('chains concurrent ledger appends into one unbroken chain, kept across a reopen, listed with its head', async () => {
    const w = await where();
    const store = await open(w);
    const ledger = await store.ledger<{ i: number }>('meter');
    expect(await store.ledgerNames()).toEqual([]);
    const made = await Promise.all(Array.from({ length: 40 }, (_, i) => ledger.append({ i }, 1_700_000_000_000 + i)));
    expect(made.map((e) => e.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(ledger.all[0]!.prev).toBe(GENESIS);
    expect(ledger.verify()).toBeNull();
    const seen: number[] = [];
    ledger.follow((e) => seen.push(e.seq));
    await ledger.append({ i: 40 }, 1_700_000_000_040);
    expect(seen).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));

    const other = await open(w);
    const reopened = await other.ledger<{ i: number }>('meter');
    expect(reopened.all).toEqual(ledger.all);
    expect(await other.ledgerNames()).toEqual(['meter']);
    expect(await other.ledgerHeads()).toEqual([{ name: 'meter', length: 41, head: ledger.all.at(-1)!.hash }]);
    expect(await other.walkLedger('meter')).toEqual({ name: 'meter', checked: 41, head: ledger.all.at(-1)!.hash, break: null });
  });

  it('walks a ledger to its first line that is not an entry, and says where, on either store', async () => {
    const w = await where();
    const store = await open(w);
    const ledger = await store.ledger<{ i: number }>('meter');
    for (let i = 0; i < 3; i++) await ledger.append({ i }, 1_700_000_000_000 + i);
    await tearLine(w, 'meter', 2);
    const first = ledger.all[0]!.hash;
    expect(await store.walkLedger('meter')).toEqual({
      name: 'meter',
      checked: 1,
      head: first,
      break: { line: 2, seq: null, why: 'the line is not a ledger entry', expected: first, found: null },
    });
  });

  it('runs work alone under a name, one at a time and in order within the deck, while another name runs beside it', async () => {
    const store = await open(await where());
    const log: string[] = [];
    // `a` holds its turn until `c` has begun (or ten seconds pass): `c` begins inside `a` only if another name runs
    // beside it, however slowly the store grants places.
    let cBegan = () => {};
    const began = new Promise<void>((resolve) => (cBegan = resolve));
    const step = (tag: string, hold: () => Promise<unknown>) => async () => {
      log.push(`${tag}+`);
      if (tag === 'c') cBegan();
      await hold();
      log.push(`${tag}-`);
      return tag;
    };
    const pause = (ms: number) => () => new Promise((resolve) => setTimeout(resolve, ms));
    const a = step('a', () => Promise.race([began, pause(10_000)()]));
    expect(await Promise.all([store.alone('x', a), store.alone('x', step('b', pause(20))), store.alone('y', step('c', pause(20)))])).toEqual(['a', 'b', 'c']);
    expect(log.indexOf('a-')).toBeLessThan(log.indexOf('b+'));
    expect(log.indexOf('c+')).toBeLessThan(log.indexOf('a-'));
  });

  it('holds guard places: as many as there are slots, the next refused until one is released', async () => {
    const store = await open(await where());
    const first = await store.hold('trial|p1', 2, false);
    const second = await store.hold('trial|p1', 2, false);
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    const third = await store.hold('trial|p1', 2, false);
    if (store.kind === 'postgres') {
      // The database holds the places for every deck; on JSON files the deck's own guard counts them.
      expect(third).toBeNull();
      await first!();
      const fourth = await store.hold('trial|p1', 2, false);
      expect(fourth).not.toBeNull();
      await fourth!();
    } else {
      await third!();
      await first!();
    }
    await second!();
  });

  it('keeps every bar of two writers adding to one tape day at once, and lists the days kept', async () => {
    const w = await where();
    // Two writers: on JSON files a second store on the same directory stands for an import running beside the deck.
    const [one, two] = [await open(w), await open(w)];
    expect(await one.tapeDays.holdsAny()).toBe(false);
    const day = '2025-01-06';
    const t0 = Date.parse(`${day}T00:00:00Z`) / 1000;
    const add = (store: Backend, i: number) =>
      store.tapeDays.update('BTC', '1m', day, (doc) => ({ doc: { rows: [...doc.rows, [t0 + 60 * i, 1, 2, 0.5, 1.5, 10]] }, added: 1 }));
    const added = await Promise.all(Array.from({ length: 20 }, (_, i) => add(i % 2 ? one : two, i)));
    expect(added.reduce((a, b) => a + b, 0)).toBe(20);
    const [kept, absent] = await two.tapeDays.read('BTC', '1m', [day, '2025-01-07']);
    expect(kept!.rows.map((r) => r[0]).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => t0 + 60 * i));
    expect(absent).toEqual({ rows: [] });
    expect(await one.tapeDays.read('BTC', '1m', [day])).toEqual([kept]);
    expect(await one.tapeDays.update('BTC', '1m', '2025-01-07', () => null)).toBe(0);
    expect(await one.tapeDays.list('BTC', '1m')).toEqual([day]);
    expect(await one.tapeDays.holdsAny()).toBe(true);
  });

  it('sums up every tape day without its bars, as another writer changes them, and leaves out what is not a day of the tape', async () => {
    const w = await where();
    const [one, two] = [await open(w), await open(w)];
    expect(await one.tapeDays.summaries()).toEqual([]);
    const t0 = Date.parse('2025-01-06T00:00:00Z') / 1000;
    const row = (t: number) => [t, 1, 2, 0.5, 1.5, 10] as [number, number, number, number, number, number];
    await two.tapeDays.update('BTC', '1m', '2025-01-06', () => ({ doc: { rows: [row(t0), row(t0 + 60)], held: [{ from: t0, to: t0 + 3600 }], sample: [{ from: t0, to: t0 + 60 }] }, added: 2 }));
    // A day kept before its held stretches were: from its first bar to the close of its last.
    await two.tapeDays.update('ES', '1h', '2025-01-07', () => ({ doc: { rows: [row(t0 + 86_400), row(t0 + 86_400 + 7200)] }, added: 2 }));
    expect(await one.tapeDays.summaries()).toEqual([
      { market: 'BTC', tf: '1m', day: '2025-01-06', bars: 2, held: [{ from: t0, to: t0 + 3600 }], sample: [{ from: t0, to: t0 + 60 }], imported: [] },
      { market: 'ES', tf: '1h', day: '2025-01-07', bars: 2, held: [{ from: t0 + 86_400, to: t0 + 86_400 + 3 * 3600 }], sample: [], imported: [] },
    ]);
    await two.tapeDays.update('BTC', '1m', '2025-01-06', (doc) => ({ doc: { ...doc, rows: [...doc.rows, row(t0 + 120)], imported: [{ from: t0 + 60, to: t0 + 3600 }] }, added: 1 }));
    expect((await one.tapeDays.summaries())[0]).toMatchObject({ bars: 3, imported: [{ from: t0 + 60, to: t0 + 3600 }] });
    if (!w.databaseUrl) {
      // A folder the tape does not serve (a market or timeframe of another version) is not a day of it.
      await writeFile(join(w.dataDir, 'tape', 'BTC', 'notes.txt'), 'kept by hand');
      expect((await one.tapeDays.summaries()).map((d) => d.day)).toEqual(['2025-01-06', '2025-01-07']);
    }
  });

  it('keeps the first bytes sealed under a name, whoever seals it at once, and forgets removed ones', async () => {
    const w = await where();
    // Two decks on PostgreSQL; on JSON files, one deck (the store of one process).
    const one = await open(w);
    const two = w.databaseUrl ? await open(w) : one;
    const sealed = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? one : two).blobs('seals').keepFirst('BTC/1m/w.json', Buffer.from(`answer ${i}`))));
    expect(new Set(sealed.map((b) => b.toString())).size).toBe(1);
    expect((await one.blobs('seals').read('BTC/1m/w.json'))!.toString()).toBe(sealed[0]!.toString());
    expect(await one.blobs('plates').read('BTC/1m/w.json')).toBeNull();
    await two.blobs('images').write('i1.png', Buffer.from([1, 2, 3]));
    expect(await one.blobs('images').read('i1.png')).toEqual(Buffer.from([1, 2, 3]));
    expect([await one.blobs('images').has('i1.png'), await one.blobs('plates').has('i1.png')]).toEqual([true, false]);
    await one.blobs('images').remove('i1.png');
    expect(await two.blobs('images').read('i1.png')).toBeNull();
    expect(await two.blobs('images').has('i1.png')).toBe(false);
  });

  it('serves a deck: joins, sessions, capped marks and the meter, all there again after a restart', async () => {
    const w = await where();
    const env = { DECK_DATA: w.dataDir, ...(w.databaseUrl ? { DECK_DATABASE_URL: w.databaseUrl } : {}) };
    const deck = await testDeck(env);
    const me = await signedIn(deck.url, 'both_stores');
    const marks = `${deck.url}/me/marks`;
    for (let i = 0; i < 20; i++) expect((await call(marks, { body: { market: 'NQ', kind: 'level', price: 100 + i }, headers: me.bearer })).status).toBe(200);
    const over = await call(marks, { body: { market: 'NQ', kind: 'level', price: 99 }, headers: me.bearer });
    expect(over.status).toBe(409);
    expect(over.body.error).toBe('cap_reached');
    expect((await call(`${deck.url}/meter`, { body: { action: 'forecast' }, headers: me.bearer })).status).toBe(200);
    const ledgers = (await call(`${deck.url}/plane/ledgers`)).body.ledgers;
    expect((await call(`${deck.url}/ready`)).body).toMatchObject({ ready: true, store: { writable: true } });
    await deck.stop();
    // On PostgreSQL the data directory holds none of it.
    const files = await readdir(w.dataDir);
    if (w.databaseUrl) expect(files.filter((f) => /\.jsonl?$/.test(f))).toEqual([]);
    else expect(files).toEqual(expect.arrayContaining(['marks.json', 'meter.jsonl', 'door.json', 'accounts.json']));

    const again = await testDeck(env);
    try {
      const listed = await call(marks.replace(deck.url, again.url), { headers: me.bearer });
      expect(listed.status).toBe(200);
      expect(listed.body.marks.map((m: { price: number }) => m.price)).toEqual(Array.from({ length: 20 }, (_, i) => 100 + i));
      expect((await call(`${again.url}/plane/ledgers`)).body.ledgers).toEqual(ledgers);
      const verify = await call(`${again.url}/plane/ledgers/meter/verify`, { headers: me.bearer });
      expect(verify.body).toMatchObject({ intact: true, checked: ledgers[0].length });
      const login = await call(`${again.url}/login`, { body: { key: me.key } });
      expect(login.status).toBe(200);
    } finally {
      await again.stop();
    }
  });
});

describe('a document two decks write on PostgreSQL', () => {
  it('is updated from its newest version by a deck whose copy is behind, without a catch-up first', async () => {
    const url = await freshDatabase();
    const [a, b] = await Promise.all([openBackend({ dataDir: await tempDir(), databaseUrl: url }), openBackend({ dataDir: await tempDir(), databaseUrl: url })]);
    try {
      const atA = await a.doc<Counter>('counter', () => ({ n: 0, log: [] }));
      const atB = await b.doc<Counter>('counter', () => ({ n: 0, log: [] }));
      await atA.update((d) => void (d.n++, d.log.push('a')));
      expect(atB.data.n).toBe(0);
      await atB.update((d) => void (d.n++, d.log.push('b')));
      expect(atB.data).toEqual({ n: 2, log: ['a', 'b'] });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('a ledger two decks append to on PostgreSQL', () => {
  it("chains on the store's head and shows a deck's followers every entry in chain order, the other deck's first", async () => {
    const url = await freshDatabase();
    const [a, b] = await Promise.all([openBackend({ dataDir: await tempDir(), databaseUrl: url }), openBackend({ dataDir: await tempDir(), databaseUrl: url })]);
    try {
      const atA = await a.ledger<{ n: number }>('shared');
      const atB = await b.ledger<{ n: number }>('shared');
      const seenAtA: number[] = [];
      atA.follow((e) => seenAtA.push(e.entry.n));
      await Promise.all([1, 2, 3].map((n) => atB.append({ n }, 1_000 + n)));
      // A has not caught up: its append chains after B's three all the same, and it adopts them before answering.
      expect(atA.all).toHaveLength(0);
      const mine = await atA.append({ n: 4 }, 2_000);
      expect(mine.seq).toBe(4);
      expect(mine.prev).toBe(atB.all.at(-1)!.hash);
      expect(atA.all.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      expect(seenAtA.slice(0, 3).sort()).toEqual([1, 2, 3]);
      expect(seenAtA[3]).toBe(4);
      expect(atA.verify()).toBeNull();
      await b.catchUp();
      expect(atB.all).toEqual(atA.all);
      // Many at once from both: one unbroken chain, the same at each.
      await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? atA : atB).append({ n: 10 + i }, 3_000 + i)));
      await Promise.all([a.catchUp(), b.catchUp()]);
      expect(atA.all).toHaveLength(44);
      expect(atB.all).toEqual(atA.all);
      expect(atA.verify()).toBeNull();
      expect(new Set(seenAtA).size).toBe(44);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("chains inside the database while the head is held: appends from two decks wait there, then form one chain whose lines are a file ledger's bytes", async () => {
    const url = await freshDatabase();
    await (await openBackend({ dataDir: await tempDir(), databaseUrl: url })).close(); // the schema
    const pools = [new pg.Pool({ connectionString: url }), new pg.Pool({ connectionString: url })];
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      const [a, b] = [await PgLedger.open<Entry>(pools[0]!, 'held'), await PgLedger.open<Entry>(pools[1]!, 'held')];
      const seen: number[] = [];
      a.follow((e) => seen.push(e.seq));
      // Text that JSON escapes and UTF-8 encodes in several widths: the database must hash the bytes a deck hashes.
      const entries: Entry[] = Array.from({ length: 24 }, (_, i) => ({ n: i, note: `é ✓ "q" \\ \u2028 𝄞 ${'\u0001'.repeat(i % 2)}`, at: i / 3 }));
      await b.append(entries[0]!, 1);
      // Another session holds the head: the appends from both decks queue at its lock in the database.
      await holder.query('BEGIN');
      await holder.query("SELECT 1 FROM deck_ledger_heads WHERE name = 'held' FOR UPDATE");
      const pending = Promise.all(entries.slice(1).map((e, i) => (i % 2 ? a : b).append(e, 1.5 + i)));
      const waiting = async () => (await holder.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows[0]!.n;
      await until(waiting, (n) => n === 2);
      await holder.query('COMMIT');
      await pending;
      await Promise.all([a.catchUp(Number.MAX_SAFE_INTEGER), b.catchUp(Number.MAX_SAFE_INTEGER)]);
      expect(a.all).toHaveLength(24);
      expect(b.all).toEqual(a.all);
      expect(a.verify()).toBeNull();
      expect(seen).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
      // The same entries appended to a file ledger in the chain's order give the same lines, byte for byte.
      const file = await FileLedger.open<Entry>(await tempDir(), 'held');
      for (const e of a.all) await file.append(e.entry, e.at);
      const { rows } = await holder.query<{ line: string }>("SELECT line FROM deck_ledger_entries WHERE ledger = 'held' ORDER BY seq");
      expect(rows.map((r) => r.line)).toEqual(file.all.map((e) => JSON.stringify(e)));
    } finally {
      await holder.end();
      await Promise.all(pools.map((p) => p.end()));
    }
  });
});

describe('a long queue of appends on PostgreSQL', () => {
  it('is chained in statements of at most 100 entries, one after another, into one chain', async () => {
    const url = await freshDatabase();
    await (await openBackend({ dataDir: await tempDir(), databaseUrl: url })).close(); // the schema
    const pool = new pg.Pool({ connectionString: url });
    const statements: string[] = [];
    const stop = ledgerLocks.listen((held) => statements.push(held.ledger));
    try {
      const ledger = await PgLedger.open<{ n: number }>(pool, 'queue');
      // The first append is written alone; the 249 that queue behind it go 100, 100 and 49 to a statement.
      await Promise.all(Array.from({ length: 250 }, (_, n) => ledger.append({ n }, 1_000 + n)));
      expect(statements.filter((l) => l === 'queue')).toHaveLength(4);
      expect(ledger.all.map((e) => e.entry.n)).toEqual(Array.from({ length: 250 }, (_, n) => n));
      expect(ledger.verify()).toBeNull();
    } finally {
      stop();
      await pool.end();
    }
  });
});

describe('choosing the store', () => {
  it('is JSON files unless DECK_DATABASE_URL names a PostgreSQL database, and refuses another URL naming the variable', () => {
    expect(readConfig({}).databaseUrl).toBeNull();
    expect(readConfig({ DECK_DATABASE_URL: 'postgres://deck:pw@db.internal:5432/deck' }).databaseUrl).toBe('postgres://deck:pw@db.internal:5432/deck');
    expect(() => readConfig({ DECK_DATABASE_URL: 'mysql://deck@db/deck' })).toThrow(/DECK_DATABASE_URL.*a PostgreSQL URL/);
  });

  it('fails to start, saying why, when the database cannot be reached', async () => {
    await expect(openBackend({ dataDir: await tempDir(), databaseUrl: 'postgres://deck:pw@127.0.0.1:1/deck' })).rejects.toThrow(/ECONNREFUSED/);
  });
});
