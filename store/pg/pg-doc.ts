import type { Pool } from 'pg';
import PQueue from 'p-queue';
import { crashPoint } from '../crash-point.js';
import type { Doc } from '../doc.js';
import { transact } from './transact.js';

/**
 * One document in a row of deck_docs, with a version counted by every write. Reads come from this deck's copy; an
 * update locks the row (SELECT ... FOR UPDATE), brings the copy up to the row when another deck wrote since, runs
 * `change` on a draft of it and writes the draft in the same transaction: every check inside `change` holds against
 * every deck. The copy adopts the draft once the commit is acknowledged.
 */
export class PgDoc<T extends object> implements Doc<T> {
  /** This deck's writes to the document queue here rather than wait for the row lock on a connection each. */
  private readonly queue = new PQueue({ concurrency: 1 });

  private constructor(
    private readonly pool: Pool,
    readonly name: string,
    private doc: T,
    private version: number,
  ) {}

  static async open<T extends object>(pool: Pool, name: string, empty: () => T): Promise<PgDoc<T>> {
    await pool.query('INSERT INTO deck_docs (name, doc, version) VALUES ($1, $2, 0) ON CONFLICT (name) DO NOTHING', [name, JSON.stringify(empty())]);
    const { rows } = await pool.query<{ doc: string; version: string }>('SELECT doc, version FROM deck_docs WHERE name = $1', [name]);
    return new PgDoc(pool, name, JSON.parse(rows[0]!.doc) as T, Number(rows[0]!.version));
  }

  get data(): Readonly<T> {
    return this.doc;
  }

  /** Reads the row again when the store holds a newer version than this deck's copy. */
  async catchUp(version: number): Promise<void> {
    if (version <= this.version) return;
    const { rows } = await this.pool.query<{ doc: string; version: string }>('SELECT doc, version FROM deck_docs WHERE name = $1', [this.name]);
    this.adopt(JSON.parse(rows[0]!.doc) as T, Number(rows[0]!.version));
  }

  private adopt(doc: T, version: number): void {
    if (version <= this.version) return;
    this.doc = doc;
    this.version = version;
  }

  update<R>(change: (draft: T) => R): Promise<R> {
    return this.queue.add(async () => {
      const { draft, version, result } = await transact(this.pool, async (client) => {
        // The row locked, and its document only when another deck wrote a newer one than this deck holds.
        const locked = await client.query<{ version: string; doc: string | null }>(
          'SELECT version, CASE WHEN version <> $2 THEN doc END AS doc FROM deck_docs WHERE name = $1 FOR UPDATE',
          [this.name, this.version],
        );
        const now = Number(locked.rows[0]!.version);
        if (locked.rows[0]!.doc !== null) this.adopt(JSON.parse(locked.rows[0]!.doc) as T, now);
        const draft = structuredClone(this.doc);
        const result = change(draft);
        await client.query('UPDATE deck_docs SET doc = $2, version = $3 WHERE name = $1', [this.name, JSON.stringify(draft), now + 1]);
        return { draft, version: now + 1, result };
      });
      crashPoint(this.name);
      this.adopt(draft, version);
      return result;
    }) as Promise<R>;
  }
}
