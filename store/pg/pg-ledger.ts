import type { Pool, PoolClient } from 'pg';
import { GENESIS } from '../chain.js';
import { HeldLedger, type Appending, type LedgerEntry } from '../ledger.js';
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
 * its head (length and last hash) in deck_ledger_heads. An append locks the head row, first adopts whatever other decks
 * chained since this deck last looked, then chains its entries on the true head and moves the head, in one
 * transaction: two decks can never chain onto the same entry, and the primary key refuses a second entry at a seq.
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
    await ledger.catchUp(Infinity);
    return ledger;
  }

  /** Adopts the entries other decks chained, when the store's head is past this deck's (length: the store's). */
  async catchUp(length: number, client: Pick<PoolClient, 'query'> = this.pool): Promise<void> {
    if (length <= this.entries.length) return;
    const { rows } = await client.query<{ line: string }>('SELECT line FROM deck_ledger_entries WHERE ledger = $1 AND seq > $2 ORDER BY seq', [this.name, this.entries.length]);
    this.adopt(rows.map((r) => JSON.parse(r.line) as LedgerEntry<T>));
  }

  protected keep(batch: readonly Appending<T>[]): Promise<LedgerEntry<T>[]> {
    return transact(this.pool, async (client) => {
      const head = await client.query<{ length: string }>('SELECT length FROM deck_ledger_heads WHERE name = $1 FOR UPDATE', [this.name]);
      await this.catchUp(Number(head.rows[0]!.length), client);
      const records = this.chained(batch);
      await insertEntries(client, this.name, records);
      const last = records.at(-1)!;
      await client.query('UPDATE deck_ledger_heads SET length = $2, head = $3 WHERE name = $1', [this.name, last.seq, last.hash]);
      return records;
    });
  }
}
