import type { Pool, PoolClient } from 'pg';
import { GENESIS, hashOf } from '../chain.js';
import { crashPoint } from '../crash-point.js';
import { verifyEntries, type Ledger, type LedgerEntry } from '../ledger.js';
import { transact } from './transact.js';

/**
 * A ledger as rows of deck_ledger_entries, keyed (ledger, seq), each row the JSON line a file ledger would hold, and
 * its head (length and last hash) in deck_ledger_heads. An append locks the head row, first adopts whatever other decks
 * chained since this deck last looked, then chains its entries on the true head and moves the head, in one
 * transaction: two decks can never chain onto the same entry, and the primary key refuses a second entry at a seq.
 * Appends arriving while one is under way go together in the next transaction (one commit for the lot).
 */
export class PgLedger<T> implements Ledger<T> {
  private readonly waiting: { entry: T; at: number; resolve: (e: LedgerEntry<T>) => void; reject: (error: unknown) => void }[] = [];
  private writing: Promise<void> | null = null;
  private readonly followers: ((e: LedgerEntry<T>) => void)[] = [];
  private readonly entries: LedgerEntry<T>[] = [];

  private constructor(
    private readonly pool: Pool,
    readonly name: string,
  ) {}

  static async open<T>(pool: Pool, name: string): Promise<PgLedger<T>> {
    await pool.query('INSERT INTO deck_ledger_heads (name, length, head) VALUES ($1, 0, $2) ON CONFLICT (name) DO NOTHING', [name, GENESIS]);
    const ledger = new PgLedger<T>(pool, name);
    await ledger.catchUp(Infinity);
    return ledger;
  }

  get all(): readonly LedgerEntry<T>[] {
    return this.entries;
  }

  follow(see: (e: LedgerEntry<T>) => void): void {
    for (const e of this.entries) see(e);
    this.followers.push(see);
  }

  verify(): { seq: number; why: string } | null {
    return verifyEntries(this.entries);
  }

  /** Adopts the entries other decks chained, when the store's head is past this deck's (length: the store's). */
  async catchUp(length: number, client: Pick<PoolClient, 'query'> = this.pool): Promise<void> {
    if (length <= this.entries.length) return;
    const { rows } = await client.query<{ line: string }>('SELECT line FROM deck_ledger_entries WHERE ledger = $1 AND seq > $2 ORDER BY seq', [this.name, this.entries.length]);
    this.adopt(rows.map((r) => JSON.parse(r.line) as LedgerEntry<T>));
  }

  /** Takes entries that follow on from those held (a catch-up and an append may both bring the same ones). */
  private adopt(records: readonly LedgerEntry<T>[]): void {
    for (const r of records) {
      if (r.seq <= this.entries.length) continue;
      if (r.seq !== this.entries.length + 1) throw new Error(`ledger ${this.name}: entry ${r.seq} read after ${this.entries.length}`);
      this.entries.push(r);
      for (const see of this.followers) see(r);
    }
  }

  append(entry: T, at: number): Promise<LedgerEntry<T>> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ entry, at, resolve, reject });
      if (!this.writing) this.writing = this.writeWaiting();
    });
  }

  private async writeWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0);
      let records: LedgerEntry<T>[];
      try {
        records = await transact(this.pool, async (client) => {
          const head = await client.query<{ length: string; head: string }>('SELECT length, head FROM deck_ledger_heads WHERE name = $1 FOR UPDATE', [this.name]);
          await this.catchUp(Number(head.rows[0]!.length), client);
          const made: LedgerEntry<T>[] = [];
          let last = this.entries.at(-1);
          for (const { entry, at } of batch) {
            const seq = (last?.seq ?? 0) + 1;
            const prev = last?.hash ?? GENESIS;
            last = { seq, at, prev, hash: hashOf(seq, at, prev, entry), entry };
            made.push(last);
          }
          await client.query('INSERT INTO deck_ledger_entries (ledger, seq, line) SELECT $1, * FROM unnest($2::bigint[], $3::text[])', [
            this.name,
            made.map((r) => r.seq),
            made.map((r) => JSON.stringify(r)),
          ]);
          await client.query('UPDATE deck_ledger_heads SET length = $2, head = $3 WHERE name = $1', [this.name, last!.seq, last!.hash]);
          return made;
        });
      } catch (error) {
        for (const w of batch) w.reject(error);
        continue;
      }
      crashPoint(this.name);
      this.adopt(records);
      batch.forEach((w, i) => w.resolve(records[i]!));
    }
    this.writing = null;
  }
}
