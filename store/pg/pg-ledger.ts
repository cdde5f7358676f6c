import type { Pool, PoolClient } from 'pg';
import { GENESIS } from '../chain.js';
import { HeldLedger, type Appending, type LedgerEntry } from '../ledger.js';
import { ledgerLocks } from '../ledger-locks.js';
import { transact } from './transact.js';

/** Inserts a ledger's entries, chained already, as their lines (one statement for the lot). */
export async function insertEntries(client: PoolClient, name: string, entries: readonly LedgerEntry<unknown>[]): Promise<void> {
  await client.query('INSERT INTO deck_ledger_entries (ledger, seq, line) SELECT $1, * FROM unnest($2::bigint[], $3::text[])', [
    name,
    entries.map((e) => e.seq),
    entries.map((e) => JSON.stringify(e)),
  ]);
}

/**
 * Chains a batch in one statement, only if the head is still the one it was chained on: the head row is locked for
 * the statement alone, inside the database, never across a round trip to a deck whose event loop is busy. It answers
 * the entries kept (none when another deck moved the head first) and, as the database's clock counts it, how long the
 * head had been locked when they were in (seconds; its commit follows).
 */
const APPEND_ON_HEAD = `WITH moved AS (
  UPDATE deck_ledger_heads SET length = $3, head = $4 WHERE name = $1 AND length = $2 AND head = $5 RETURNING clock_timestamp() AS locked
), kept AS (
  INSERT INTO deck_ledger_entries (ledger, seq, line) SELECT $1, t.seq, t.line FROM unnest($6::bigint[], $7::text[]) AS t(seq, line) WHERE EXISTS (SELECT 1 FROM moved) RETURNING 1
)
SELECT (SELECT count(*) FROM kept)::int AS kept, (SELECT extract(epoch FROM clock_timestamp() - locked) FROM moved)::float8 AS held`;

/** Tries at chaining on the head this deck holds before an append waits its turn at the head's lock instead. */
const ON_HEAD_TRIES = 3;

/**
 * A ledger as rows of deck_ledger_entries, keyed (ledger, seq), each row the JSON line a file ledger would hold, and
 * its head (length and last hash) in deck_ledger_heads. An append chains its batch on the head this deck holds and
 * moves the store's head in one statement, if no other deck moved it first; when one did, this deck adopts what it
 * chained and tries again. After a few tries it takes the head's lock (SELECT ... FOR UPDATE), chains on the head
 * the row holds and adopts the others' entries after the commit, so a busy ledger always makes progress. Either way
 * two decks can never chain onto the same entry, and the primary key refuses a second entry at a seq; the time a
 * head is held does not grow with the number of decks. Appends arriving while one is under way go together in the
 * next write (one statement, or one commit, for the lot).
 */
export class PgLedger<T> extends HeldLedger<T> {
  private constructor(
    private readonly pool: Pool,
    name: string,
    private readonly onHeadTries: number,
  ) {
    super(name, []);
  }

  /** `onHeadTries`: how many times an append chains on the head held before it waits its turn at the lock (0: always). */
  static async open<T>(pool: Pool, name: string, onHeadTries = ON_HEAD_TRIES): Promise<PgLedger<T>> {
    await pool.query('INSERT INTO deck_ledger_heads (name, length, head) VALUES ($1, 0, $2) ON CONFLICT (name) DO NOTHING', [name, GENESIS]);
    const ledger = new PgLedger<T>(pool, name, onHeadTries);
    await ledger.catchUp(Number.MAX_SAFE_INTEGER);
    return ledger;
  }

  /** Adopts the entries other decks chained, up to `length` (the store's head, or the seq an append chained after). */
  async catchUp(length: number): Promise<void> {
    if (length <= this.entries.length) return;
    const { rows } = await this.pool.query<{ line: string }>('SELECT line FROM deck_ledger_entries WHERE ledger = $1 AND seq > $2 AND seq <= $3 ORDER BY seq', [
      this.name,
      this.entries.length,
      length,
    ]);
    this.adopt(rows.map((r) => JSON.parse(r.line) as LedgerEntry<T>));
  }

  protected async keep(batch: readonly Appending<T>[]): Promise<LedgerEntry<T>[]> {
    for (let tries = 0; tries < this.onHeadTries; tries++) {
      const head = this.entries.at(-1) ?? { seq: 0, hash: GENESIS };
      const records = this.chained(batch);
      const last = records.at(-1)!;
      const { rows } = await this.pool.query<{ kept: number; held: number | null }>(APPEND_ON_HEAD, [
        this.name,
        head.seq,
        last.seq,
        last.hash,
        head.hash,
        records.map((r) => r.seq),
        records.map((r) => JSON.stringify(r)),
      ]);
      const { kept, held } = rows[0]!;
      if (kept > 0) {
        ledgerLocks.publish({ ledger: this.name, seconds: held ?? 0 });
        return records;
      }
      await this.catchUp(Number.MAX_SAFE_INTEGER);
    }
    return this.keepInTurn(batch);
  }

  /** The append that waits its turn at the head's lock and chains on the head the locked row holds. */
  private async keepInTurn(batch: readonly Appending<T>[]): Promise<LedgerEntry<T>[]> {
    let locked = 0;
    // The lock is held across round trips here, so the deck counts it: from the locked row's answer to the commit's.
    const records = await transact(this.pool, async (client) => {
      const { rows } = await client.query<{ length: string; head: string }>('SELECT length, head FROM deck_ledger_heads WHERE name = $1 FOR UPDATE', [this.name]);
      locked = performance.now();
      const records = this.chained(batch, { seq: Number(rows[0]!.length), hash: rows[0]!.head });
      await insertEntries(client, this.name, records);
      const last = records.at(-1)!;
      await client.query('UPDATE deck_ledger_heads SET length = $2, head = $3 WHERE name = $1', [this.name, last.seq, last.hash]);
      return records;
    });
    ledgerLocks.publish({ ledger: this.name, seconds: (performance.now() - locked) / 1000 });
    // Committed: a failure from here on rejects an append that was kept, as a lost commit answer would; the next
    // catch-up adopts it. Followers see the chain in order: the entries chained before this batch first.
    await this.catchUp(records[0]!.seq - 1);
    return records;
  }
}
