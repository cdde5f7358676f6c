import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import pg from 'pg';
import { BLOB_KINDS, type BlobKind } from './blobs.js';
import { GENESIS } from './chain.js';
import { FileLedger } from './file-ledger.js';
import { ledgerNames } from './ledger-files.js';
import type { LedgerEntry } from './ledger.js';
import { migrate } from './pg/migrations.js';
import { pgBackend } from './pg/pg-backend.js';
import { insertEntries } from './pg/pg-ledger.js';
import { transact } from './pg/transact.js';
import { DAY_FILE } from './tape-days.js';
import { removeTempFiles } from './temp-files.js';

/** What a copy moved, and each ledger as verified in the database afterwards. */
export interface Copied {
  documents: string[];
  ledgers: { name: string; entries: number; head: string | null }[];
  tapeDays: number;
  blobs: Record<BlobKind, number>;
}

/** Rows per insert, so a long ledger goes in a few statements. */
const BATCH = 1000;

const filesUnder = async (dir: string): Promise<string[]> =>
  (await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []))
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();

/**
 * Copies a JSON deployment (its data directory) into an empty PostgreSQL database, in one transaction: every
 * document, every ledger line by line (a ledger that does not verify is refused before anything is written), every
 * tape day, seal, plate and image. Then reads every ledger back from the database and checks that its chain holds
 * and ends on the head it had on disk. Refuses a database that already holds a store.
 */
export async function copyToPostgres(dir: string, url: string): Promise<Copied> {
  await removeTempFiles(dir);
  const names = await ledgerNames(dir);
  const ledgers: { name: string; entries: readonly LedgerEntry<unknown>[] }[] = [];
  for (const name of names) {
    const ledger = await FileLedger.open(dir, name);
    const broken = ledger.verify();
    if (broken) throw new Error(`the ledger ${name} breaks at entry ${broken.seq} (${broken.why}): nothing was copied`);
    ledgers.push({ name, entries: ledger.all });
  }
  const top = await readdir(dir, { withFileTypes: true });
  const documents = top.filter((e) => e.isFile() && e.name.endsWith('.json') && !e.name.startsWith('.')).map((e) => e.name.slice(0, -'.json'.length)).sort();

  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const copied: Copied = { documents, ledgers: [], tapeDays: 0, blobs: { seals: 0, plates: 0, images: 0, trades: 0 } };
  try {
    await migrate(pool);
    await transact(pool, async (client) => {
      const held = await client.query<{ n: string }>(
        'SELECT (SELECT count(*) FROM deck_docs) + (SELECT count(*) FROM deck_ledger_heads) + (SELECT count(*) FROM deck_tape_days) + (SELECT count(*) FROM deck_blobs) AS n',
      );
      if (Number(held.rows[0]!.n) > 0) throw new Error('the database already holds a store: copy into an empty one');
      for (const name of documents) {
        const text = await readFile(join(dir, `${name}.json`), 'utf8');
        JSON.parse(text);
        await client.query('INSERT INTO deck_docs (name, doc, version) VALUES ($1, $2, 1)', [name, text]);
      }
      for (const { name, entries } of ledgers) {
        const last = entries.at(-1);
        await client.query('INSERT INTO deck_ledger_heads (name, length, head) VALUES ($1, $2, $3)', [name, entries.length, last?.hash ?? GENESIS]);
        for (let i = 0; i < entries.length; i += BATCH) await insertEntries(client, name, entries.slice(i, i + BATCH));
      }
      for (const path of await filesUnder(join(dir, 'tape'))) {
        const [market, tf, file, ...deeper] = path.split('/');
        if (!market || !tf || !file || deeper.length || !DAY_FILE.test(file)) continue;
        const text = await readFile(join(dir, 'tape', path), 'utf8');
        JSON.parse(text);
        await client.query('INSERT INTO deck_tape_days (market, tf, day, doc, version) VALUES ($1, $2, $3, $4, 1)', [market, tf, file.slice(0, 10), text]);
        copied.tapeDays++;
      }
      for (const kind of BLOB_KINDS) {
        for (const name of await filesUnder(join(dir, kind))) {
          await client.query('INSERT INTO deck_blobs (kind, name, bytes) VALUES ($1, $2, $3)', [kind, name, await readFile(join(dir, kind, name))]);
          copied.blobs[kind]++;
        }
      }
    });
  } finally {
    await pool.end();
  }

  const store = await pgBackend(url);
  try {
    for (const { name, entries } of ledgers) {
      const walk = await store.walkLedger(name);
      const head = entries.at(-1)?.hash ?? null;
      if (walk.break) throw new Error(`the ledger ${name} copied breaks at entry ${walk.break.seq ?? walk.break.line} (${walk.break.why})`);
      if (walk.checked !== entries.length || (head !== null && walk.head !== head)) {
        throw new Error(`the ledger ${name} copied holds ${walk.checked} entries ending on ${walk.head}, not ${entries.length} ending on ${head}`);
      }
      copied.ledgers.push({ name, entries: walk.checked, head });
    }
  } finally {
    await store.close();
  }
  return copied;
}
