import pg from 'pg';
import type { Backend } from '../backend.js';
import { GENESIS } from '../chain.js';
import { walkLine, type LedgerHead, type LedgerWalk } from '../ledger-files.js';
import { migrate } from './migrations.js';
import { PgBlobs } from './pg-blobs.js';
import { PgDoc } from './pg-doc.js';
import { PgLedger } from './pg-ledger.js';
import { PgTapeDays } from './pg-tape-days.js';
import { transact } from './transact.js';
import { Turns } from '../turns.js';

/** Connections per deck for the requests' queries. */
const POOL_SIZE = 16;
/**
 * Connections per deck for the places guards hold while their work runs: a pool of their own, so held places can
 * never take every connection the work inside them needs.
 */
const HOLDS_SIZE = 32;
/** Rows read at a time while walking a ledger. */
const WALK_BATCH = 2000;

/**
 * The store in one PostgreSQL database that many decks share (DECK_DATABASE_URL). The schema is migrated at start;
 * documents and ledgers are opened once per deck and caught up per request; guards hold advisory locks.
 */
export async function pgBackend(url: string): Promise<Backend> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, allowExitOnIdle: true });
  // A connection that breaks while idle is dropped by the pool; the next query that needs one reports the failure.
  pool.on('error', () => {});
  const holds = new pg.Pool({ connectionString: url, max: HOLDS_SIZE, allowExitOnIdle: true });
  holds.on('error', () => {});
  try {
    await migrate(pool);
  } catch (error) {
    await Promise.all([pool.end(), holds.end()]);
    throw error;
  }
  const docs = new Map<string, PgDoc<object>>();
  const turns = new Turns();
  const ledgers = new Map<string, PgLedger<unknown>>();

  async function catchUpOnce(): Promise<void> {
    const { rows } = await pool.query<{ kind: 'doc' | 'ledger'; name: string; n: string }>(
      "SELECT 'doc' AS kind, name, version AS n FROM deck_docs UNION ALL SELECT 'ledger', name, length FROM deck_ledger_heads",
    );
    await Promise.all(rows.map((r) => (r.kind === 'doc' ? docs.get(r.name)?.catchUp(Number(r.n)) : ledgers.get(r.name)?.catchUp(Number(r.n)))));
  }
  // One catch-up at a time; a request that arrives while one runs waits for the next, which begins after it arrived.
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const catchUp = (): Promise<void> => {
    if (!running) {
      running = catchUpOnce().finally(() => (running = null));
      return running;
    }
    next ??= running.catch(() => {}).then(() => {
      next = null;
      return catchUp();
    });
    return next;
  };

  async function hold(name: string, slots: number, wait: boolean): Promise<(() => Promise<void>) | null> {
    const client = await holds.connect();
    try {
      let slot = -1;
      if (wait) {
        await client.query('SELECT pg_advisory_lock(hashtext($1), 0)', [name]);
        slot = 0;
      } else {
        for (let i = 0; i < slots && slot < 0; i++) {
          const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock(hashtext($1), $2) AS held', [name, i]);
          if (rows[0]!.held) slot = i;
        }
      }
      if (slot < 0) {
        client.release();
        return null;
      }
      const held = slot;
      return async () => {
        try {
          await client.query('SELECT pg_advisory_unlock(hashtext($1), $2)', [name, held]);
          client.release();
        } catch (error) {
          // A connection that cannot unlock is closed, which releases its locks.
          client.release(error as Error);
        }
      };
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  }

  /** The hash a stored line says it follows, or null when the line is not an entry. */
  const prevOf = (line: string): string | null => {
    try {
      return (JSON.parse(line) as { prev?: string } | null)?.prev ?? null;
    } catch {
      return null;
    }
  };

  /** The ledgers holding an entry, in one query, sorted as the file store sorts (code points), whatever the collation. */
  async function ledgerHeads(): Promise<LedgerHead[]> {
    const { rows } = await pool.query<{ name: string; length: string; head: string }>('SELECT name, length, head FROM deck_ledger_heads WHERE length > 0');
    return rows.map((r) => ({ name: r.name, length: Number(r.length), head: r.head })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  return {
    kind: 'postgres',
    shared: true,
    async doc<T extends object>(name: string, empty: () => T) {
      const known = docs.get(name);
      if (known) return known as unknown as PgDoc<T>;
      const doc = await PgDoc.open<T>(pool, name, empty);
      docs.set(name, doc as unknown as PgDoc<object>);
      return doc;
    },
    async ledger<T>(name: string) {
      const known = ledgers.get(name);
      if (known) return known as PgLedger<T>;
      const ledger = await PgLedger.open<T>(pool, name);
      ledgers.set(name, ledger as PgLedger<unknown>);
      return ledger;
    },
    tapeDays: new PgTapeDays(pool),
    blobs: (kind) => new PgBlobs(pool, kind),
    ledgerNames: async () => (await ledgerHeads()).map((h) => h.name),
    ledgerHeads,
    async walkLedger(name): Promise<LedgerWalk> {
      let prev = GENESIS;
      let checked = 0;
      for (;;) {
        const { rows } = await pool.query<{ seq: string; line: string }>('SELECT seq, line FROM deck_ledger_entries WHERE ledger = $1 AND seq > $2 ORDER BY seq LIMIT $3', [
          name,
          checked,
          WALK_BATCH,
        ]);
        for (const row of rows) {
          const line = Number(row.seq);
          const step = line === checked + 1 ? walkLine(row.line, prev, line) : { break: { line, seq: line, why: `entry ${checked + 1} is missing`, expected: prev, found: prevOf(row.line) } };
          if ('break' in step) return { name, checked, head: prev, break: step.break };
          prev = step.hash;
          checked++;
        }
        if (rows.length < WALK_BATCH) return { name, checked, head: prev, break: null };
      }
    },
    catchUp,
    hold,
    alone: (name, work) =>
      turns.run(name, async () => {
        const release = (await hold(`alone|${name}`, 1, true))!;
        try {
          await catchUp();
          return await work();
        } finally {
          await release();
        }
      }),
    // A write in a transaction: refused by a standby, by a full disk, or when the database cannot be reached.
    async probeWrite(at) {
      await transact(pool, async (client) => {
        await client.query("INSERT INTO deck_blobs (kind, name, bytes) VALUES ('probe', 'ready', $1) ON CONFLICT (kind, name) DO UPDATE SET bytes = excluded.bytes", [
          Buffer.from(String(at)),
        ]);
      });
    },
    close: async () => void (await Promise.all([pool.end(), holds.end()])),
  };
}
