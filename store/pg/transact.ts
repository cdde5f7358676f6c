import type { Pool, PoolClient } from 'pg';

/** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
export async function transact<R>(pool: Pool, work: (client: PoolClient) => Promise<R>): Promise<R> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw error;
    }
  } finally {
    // A connection whose rollback failed is in no known state: it is dropped, not given back to the pool.
    client.release(broken);
  }
}
