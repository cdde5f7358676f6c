import type { Pool } from 'pg';

/**
 * The schema, as numbered migrations: each runs once, in order, in its own transaction, and is recorded in
 * deck_migrations. A migration once released is never edited; a change is a new number. Documents and ledger lines
 * are kept as the JSON text the deck wrote (not jsonb, which reorders keys), so every deck reads back the very bytes.
 */
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'documents and ledgers',
    sql: `
      CREATE TABLE deck_docs (
        name text PRIMARY KEY,
        doc text NOT NULL,
        version bigint NOT NULL
      );
      CREATE TABLE deck_ledger_heads (
        name text PRIMARY KEY,
        length bigint NOT NULL,
        head text NOT NULL
      );
      CREATE TABLE deck_ledger_entries (
        ledger text NOT NULL REFERENCES deck_ledger_heads (name),
        seq bigint NOT NULL CHECK (seq > 0),
        line text NOT NULL,
        PRIMARY KEY (ledger, seq)
      );
    `,
  },
  {
    version: 2,
    name: 'tape days and blobs',
    sql: `
      CREATE TABLE deck_tape_days (
        market text NOT NULL,
        tf text NOT NULL,
        day text NOT NULL,
        doc text NOT NULL,
        version bigint NOT NULL,
        PRIMARY KEY (market, tf, day)
      );
      CREATE TABLE deck_blobs (
        kind text NOT NULL,
        name text NOT NULL,
        bytes bytea NOT NULL,
        PRIMARY KEY (kind, name)
      );
    `,
  },
];

/** Any fixed number: the advisory lock every deck takes while it migrates, so two starting at once migrate once. */
const MIGRATION_LOCK = 0x6465636b;

/** Brings the database's schema up to the newest migration; refuses a database a newer deck has migrated past. */
export async function migrate(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS deck_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
      const done = new Set((await client.query<{ version: number }>('SELECT version FROM deck_migrations')).rows.map((r) => r.version));
      const newest = MIGRATIONS.at(-1)!.version;
      const ahead = [...done].filter((v) => v > newest);
      if (ahead.length) throw new Error(`the database is at schema version ${Math.max(...ahead)}, newer than this deck's ${newest}: run a newer deck`);
      for (const m of MIGRATIONS) {
        if (done.has(m.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query('INSERT INTO deck_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
