import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS, linkBreak, type Link } from '../store/chain.js';
import { signedIn, spawnDeck, type SpawnedDeck } from './support/deck.js';
import { call } from './support/http.js';
import { freshDatabase } from './support/postgres.js';

// Three decks on one database under a steady load of writes (marks, the meter's ledger) while one of them is killed
// with SIGKILL: nothing any deck acknowledged is lost, every ledger stays one chain, and the killed deck, started
// again, serves what the others wrote meanwhile.

let database: string;
const dirs: string[] = [];
const running: SpawnedDeck[] = [];
const deckOn = async (env: Record<string, string> = {}) => {
  const dir = await mkdtemp(join(tmpdir(), 'deck-kill-'));
  dirs.push(dir);
  const deck = await spawnDeck({ DECK_DATA: dir, DECK_DATABASE_URL: database, DECK_JOIN_PER_CLIENT: '1000', ...env });
  running.push(deck);
  return deck;
};

beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** Every ledger in the database walked from its first entry: the first break of each, or none. */
async function walkAll(): Promise<{ ledger: string; length: number; broken: string | null }[]> {
  const heads = await query<{ name: string; length: string; head: string }>('SELECT name, length, head FROM deck_ledger_heads ORDER BY name');
  const out = [];
  for (const h of heads) {
    const rows = await query<{ seq: string; line: string }>('SELECT seq, line FROM deck_ledger_entries WHERE ledger = $1 ORDER BY seq', [h.name]);
    let prev = GENESIS;
    let broken: string | null = rows.length === Number(h.length) ? null : `${rows.length} rows under a head of ${h.length}`;
    for (const [i, r] of rows.entries()) {
      const e = JSON.parse(r.line) as Link;
      const b = Number(r.seq) === i + 1 ? linkBreak(e, prev) : { seq: i + 1, why: 'missing' };
      if (b && !broken) broken = `${b.seq}: ${b.why}`;
      prev = e.hash;
    }
    if (!broken && Number(h.length) > 0 && prev !== h.head) broken = 'the head is not the last entry';
    out.push({ ledger: h.name, length: Number(h.length), broken });
  }
  return out;
}

describe('a deck killed mid-write among three', () => {
  it('loses nothing acknowledged and forks no chain; started again, it serves what the others wrote', async () => {
    const decks = await Promise.all([deckOn(), deckOn(), deckOn()]);
    const victim = decks[2]!;
    const people = await Promise.all(Array.from({ length: 6 }, (_, i) => signedIn(decks[i % 3]!.url, `steady_${i}`)));
    const ackedMarks = new Map<number, string[]>();
    const ackedMeter = new Map<number, number>();
    let stop = false;
    const worker = async (p: number) => {
      for (let n = 0; !stop; n++) {
        const deck = decks[(p + n) % 3]!;
        try {
          if (n % 2 === 0 && (ackedMarks.get(p)?.length ?? 0) < 60) {
            const market = ['NQ', 'ES', 'YM', 'BTC', 'ETH', 'SOL'][n % 6]!;
            const r = await call(`${deck.url}/me/marks`, { body: { market, kind: 'level', price: 100 + n }, headers: people[p]!.bearer });
            if (r.status === 200) ackedMarks.set(p, [...(ackedMarks.get(p) ?? []), r.body.mark.id]);
          } else {
            const r = await call(`${deck.url}/meter`, { body: { action: 'forecast' }, headers: people[p]!.bearer });
            if (r.status === 200) ackedMeter.set(p, (ackedMeter.get(p) ?? 0) + 1);
          }
        } catch {
          // The killed deck's connections break: what it did not answer was not acknowledged.
        }
      }
    };
    const load = people.map((_, p) => worker(p));
    await new Promise((r) => setTimeout(r, 400 + Math.floor(Math.random() * 600)));
    victim.child.kill('SIGKILL');
    expect(await victim.exited).toBeNull();
    // The others go on writing without it.
    const meterBefore = [...ackedMeter.values()].reduce((a, b) => a + b, 0);
    expect(meterBefore).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 800));
    stop = true;
    await Promise.all(load);
    expect([...ackedMeter.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(meterBefore);

    // Every ledger in the database is one unbroken chain.
    const walked = await walkAll();
    expect(walked.filter((w) => w.broken)).toEqual([]);

    // Started again on the same database, the killed deck serves every acknowledged write, as the others do.
    const again = await deckOn();
    const ids = Object.fromEntries(
      (await query<{ doc: string }>("SELECT doc FROM deck_docs WHERE name = 'accounts'")).flatMap((r) =>
        Object.values((JSON.parse(r.doc) as { accounts: Record<string, { id: string; name: string }> }).accounts).map((a) => [a.name, a.id]),
      ),
    );
    const meterLines = (await query<{ line: string }>("SELECT line FROM deck_ledger_entries WHERE ledger = 'meter'")).map(
      (r) => (JSON.parse(r.line) as { entry: { principal_id: string; action: string } }).entry,
    );
    for (const [p, person] of people.entries()) {
      for (const deck of [decks[0]!, decks[1]!, again]) {
        const listed = await call(`${deck.url}/me/marks`, { headers: person.bearer });
        const have = new Set(listed.body.marks.map((m: { id: string }) => m.id));
        expect((ackedMarks.get(p) ?? []).filter((id) => !have.has(id))).toEqual([]);
      }
      const recorded = meterLines.filter((e) => e.principal_id === ids[`steady_${p}`] && e.action === 'forecast').length;
      expect(recorded).toBeGreaterThanOrEqual(ackedMeter.get(p) ?? 0);
    }
    const heads = await Promise.all([decks[0]!, decks[1]!, again].map(async (d) => (await call(`${d.url}/plane/ledgers`)).body.ledgers));
    expect(heads[1]).toEqual(heads[0]);
    expect(heads[2]).toEqual(heads[0]);
  }, 60_000);

  it('a deck cut right after its write commits, before it answers: the write stands, counted by every deck', async () => {
    const [steady] = await Promise.all([deckOn()]);
    const cut = await deckOn({ DECK_CRASH_AT: 'marks' });
    const me = await signedIn(steady.url, 'cut_short');
    await expect(call(`${cut.url}/me/marks`, { body: { market: 'NQ', kind: 'level', price: 7 }, headers: me.bearer })).rejects.toThrow();
    expect(await cut.exited).toBeNull();
    const listed = await call(`${steady.url}/me/marks`, { headers: me.bearer });
    expect(listed.body.marks.map((m: { price: number }) => m.price)).toEqual([7]);
    for (let i = 0; i < 25; i++) await call(`${steady.url}/me/marks`, { body: { market: 'NQ', kind: 'level', price: 8 + i }, headers: me.bearer });
    expect((await call(`${steady.url}/me/marks?market=NQ`, { headers: me.bearer })).body.marks).toHaveLength(20);
  }, 60_000);
});
