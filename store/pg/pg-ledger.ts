import type { Pool, PoolClient } from 'pg';
import { GENESIS } from '../chain.js';
import { HeldLedger, type Appending, type LedgerEntry } from '../ledger.js';
import { ledgerLocks } from '../ledger-locks.js';

/** Inserts a ledger's entries, chained already, as their lines (one statement for the lot). */
export async function insertEntries(client: PoolClient, name: string, entries: readonly LedgerEntry<unknown>[]): Promise<void> {
  await client.query('INSERT INTO deck_ledger_entries (ledger, seq, line) SELECT $1, * FROM unnest($2::bigint[], $3::text[])', [
    name,
    entries.map((e) => e.seq),
    entries.map((e) => JSON.stringify(e)),
  ]);
}

/**
 * Appends a batch in one statement, inside the database: it takes the head row's lock (waiting its turn there while
 * another append holds it), chains each entry on the one before (the head's hash first) exactly as `hashOf` and a
 * file ledger's line do, inserts the lines and moves the head. The head is held for this statement and its commit
 * alone, never across a round trip to a deck, so the time it is held does not grow with the decks waiting on it.
 * `$2` are the entries' times and `$3` their entries, each as JSON text (the deck's own encoding, so the bytes hashed
 * are the bytes a file ledger hashes). It answers the lines kept and, as the database's clock counts it, how long the
 * head had been locked when they were in (seconds; the commit follows).
 */
const APPEND = `WITH RECURSIVE head AS (
  SELECT length, head, clock_timestamp() AS locked FROM deck_ledger_heads WHERE name = $1 FOR UPDATE
), batch AS (
  SELECT n, at, entry FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS b(at, entry, n)
), chain AS (
  SELECT 0::bigint AS n, length AS seq, head AS hash, NULL::text AS line FROM head
  UNION ALL
  SELECT b.n, c.seq + 1, link.hash,
    '{"seq":' || (c.seq + 1) || ',"at":' || b.at || ',"prev":"' || c.hash || '","hash":"' || link.hash || '","entry":' || b.entry || '}'
  FROM chain c JOIN batch b ON b.n = c.n + 1
  CROSS JOIN LATERAL (SELECT encode(sha256(convert_to('[' || (c.seq + 1) || ',' || b.at || ',"' || c.hash || '",' || b.entry || ']', 'UTF8')), 'hex') AS hash) link
), kept AS (
  INSERT INTO deck_ledger_entries (ledger, seq, line) SELECT $1, seq, line FROM chain WHERE n > 0 RETURNING seq, line
), moved AS (
  UPDATE deck_ledger_heads SET length = last.seq, head = last.hash FROM (SELECT seq, hash FROM chain ORDER BY n DESC LIMIT 1) last WHERE name = $1 RETURNING 1
)
SELECT (SELECT json_agg(line ORDER BY seq) FROM kept)::text AS lines, (SELECT count(*) FROM moved)::int AS moved,
  (SELECT extract(epoch FROM clock_timestamp() - locked) FROM head)::float8 AS held`;

/**
 * The most entries one statement chains. Each entry's step of the recursive chain reads the batch again, so a
 * statement's time under the head's lock grows with the square of its batch (4,000 entries held it about a second);
 * at this size it stays near a millisecond, and a longer queue goes in the statements after.
 */
const STATEMENT_BATCH = 100;

/**
 * A ledger as rows of deck_ledger_entries, keyed (ledger, seq), each row the JSON line a file ledger would hold, and
 * its head (length and last hash) in deck_ledger_heads. A batch is chained on the store's head inside the database, in
 * one statement (`APPEND`), so two decks can never chain onto the same entry and a busy ledger always makes progress;
 * the deck then adopts what other decks chained before its batch, and the batch. Appends arriving while one is under
 * way go together in the next statement.
 */
export class PgLedger<T> extends HeldLedger<T> {
  private constructor(
    private readonly pool: Pool,
    name: string,
  ) {
    super(name, [], STATEMENT_BATCH);
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
    const { rows } = await this.pool.query<{ lines: string | null; moved: number; held: number | null }>(APPEND, [
      this.name,
      batch.map((a) => JSON.stringify(a.at)),
      batch.map((a) => JSON.stringify(a.entry)),
    ]);
    const { lines, moved, held } = rows[0]!;
    if (moved !== 1 || lines === null) throw new Error(`ledger ${this.name}: its head is not in the store`);
    ledgerLocks.publish({ ledger: this.name, seconds: held ?? 0 });
    const records = (JSON.parse(lines) as string[]).map((line) => JSON.parse(line) as LedgerEntry<T>);
    // Committed: a failure from here on rejects an append that was kept, as a lost commit answer would; the next
    // catch-up adopts it. Followers see the chain in order: the entries chained before this batch first.
    await this.catchUp(records[0]!.seq - 1);
    return records;
  }
}
