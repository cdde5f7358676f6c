import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** A new empty database on the test PostgreSQL server; answers its URL (the server is dropped whole at the end). */
export async function freshDatabase(): Promise<string> {
  const server = inject('postgresUrl');
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

/** The stores a behaviour is proven on: each answers the environment a deck needs to run on it. */
export const STORES: readonly { name: 'json' | 'postgres'; env: () => Promise<Record<string, string>> }[] = [
  { name: 'json', env: async () => ({}) },
  { name: 'postgres', env: async () => ({ DECK_DATABASE_URL: await freshDatabase() }) },
];
