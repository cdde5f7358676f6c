import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A new empty database on a PostgreSQL server (a URL without a database); answers its URL. */
export async function databaseOn(server: string): Promise<string> {
  const name = `deck_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: `${server}/postgres` });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return `${server}/${name}`;
}
