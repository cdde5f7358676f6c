import type { Pool, PoolClient } from 'pg';
import { GENESIS } from '../chain.js';
import { HeldLedger, type Appending, type LedgerEntry } from '../ledger.js';
import { publishLockHeld } from '../ledger-locks.js';
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
 * A ledger as rows of deck_ledger_entries, keyed (ledger, seq), each row the JSON line a file ledger would hold, and
 * its head (length and last hash) in deck_ledger_heads. An append locks the head row, chains its entries on the head
 * the row holds and moves it, in one transaction: two decks can never chain onto the same entry, and the primary key
 * refuses a second entry at a seq. What other decks chained meanwhile is adopted after the commit, before the append
 * is acknowledged: the time a head is held is then the same however many decks write, not the catch-up of theirs.
 * Appends arriving while one is under way go together in the next transaction (one commit for the lot).
 */
export class PgLedger<T> extends HeldLedger<T> {
  private constructor(
    private readonly pool: Pool,
    name: string,
  ) {
    super(name, []);
  }

  static async open<T>(pool: Pool, name: string): Promise<PgLedger<T>> {
    await pool.query('INSERT INTO deck_ledger_heads (name, length, head) VALUES ($1, 0, $2) ON CONFLICT (name) DO NOTHING', [name, GENESIS]);
    const ledger = new PgLedger<T>(pool, name);
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
    let locked = 0;
    const records = await transact(this.pool, async (client) => {
      const { rows } = await client.query<{ length: string; head: string }>('SELECT length, head FROM deck_ledger_heads WHERE name = $1 FOR UPDATE', [this.name]);
      locked = performance.now();
      const records = this.chained(batch, { seq: Number(rows[0]!.length), hash: rows[0]!.head });
      await insertEntries(client, this.name, records);
      const last = records.at(-1)!;
      await client.query('UPDATE deck_ledger_heads SET length = $2, head = $3 WHERE name = $1', [this.name, last.seq, last.hash]);
      return records;
    });
    publishLockHeld(this.name, locked);
    // Committed: a failure from here on rejects an append that was kept, as a lost commit answer would; the next
    // catch-up adopts it. Followers see the chain in order: the entries chained before this batch first.
    await this.catchUp(records[0]!.seq - 1);
    return records;
  }
}
