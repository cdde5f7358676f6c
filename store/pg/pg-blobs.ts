import type { Pool } from 'pg';
import type { Blobs } from '../blobs.js';

/** Blobs of one kind as rows of deck_blobs (bytea), keyed (kind, name). */
export class PgBlobs implements Blobs {
  constructor(
    private readonly pool: Pool,
    private readonly kind: string,
  ) {}

  async read(name: string): Promise<Buffer | null> {
    const { rows } = await this.pool.query<{ bytes: Buffer }>('SELECT bytes FROM deck_blobs WHERE kind = $1 AND name = $2', [this.kind, name]);
    return rows[0]?.bytes ?? null;
  }

  async has(name: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('SELECT 1 FROM deck_blobs WHERE kind = $1 AND name = $2', [this.kind, name]);
    return rowCount !== 0;
  }

  async write(name: string, bytes: Uint8Array): Promise<void> {
    await this.pool.query('INSERT INTO deck_blobs (kind, name, bytes) VALUES ($1, $2, $3) ON CONFLICT (kind, name) DO UPDATE SET bytes = excluded.bytes', [
      this.kind,
      name,
      Buffer.from(bytes),
    ]);
  }

  async keepFirst(name: string, bytes: Uint8Array): Promise<Buffer> {
    // The first insert wins; whoever loses reads the winner's bytes (committed before the conflict was reported).
    const { rows } = await this.pool.query<{ bytes: Buffer }>(
      'INSERT INTO deck_blobs (kind, name, bytes) VALUES ($1, $2, $3) ON CONFLICT (kind, name) DO NOTHING RETURNING bytes',
      [this.kind, name, Buffer.from(bytes)],
    );
    return rows[0]?.bytes ?? (await this.read(name))!;
  }

  async remove(name: string): Promise<void> {
    await this.pool.query('DELETE FROM deck_blobs WHERE kind = $1 AND name = $2', [this.kind, name]);
  }
}
