import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTapeDays } from '../store/tape-days.js';
import { TapeArchive } from '../store/tape-archive.js';
import { runCli } from './support/cli.js';
import { signedIn, testDeck } from './support/deck.js';
import { call } from './support/http.js';
import { freshDatabase } from './support/postgres.js';

// `npm run store -- copy`: a JSON deployment moved into PostgreSQL, every ledger verified there, and a deck on the
// database answering as the deck on the files did.

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
const tempDir = async () => {
  const d = await mkdtemp(join(tmpdir(), 'deck-copy-'));
  dirs.push(d);
  return d;
};

let source: string;
let me: Awaited<ReturnType<typeof signedIn>>;
let before: { marks: string; ledgers: unknown; meter: string };
const T0 = Date.parse('2025-01-06T00:00:00Z') / 1000;

beforeAll(async () => {
  source = await tempDir();
  const deck = await testDeck({ DECK_DATA: source });
  try {
    me = await signedIn(deck.url, 'mover');
    for (let i = 0; i < 3; i++) await call(`${deck.url}/me/marks`, { body: { market: 'ES', kind: 'level', price: 5000 + i, note: `m${i}` }, headers: me.bearer });
    for (const action of ['forecast', 'trial']) await call(`${deck.url}/meter`, { body: { action }, headers: me.bearer });
    before = {
      marks: await (await fetch(`${deck.url}/me/marks`, { headers: me.bearer })).text(),
      ledgers: (await call(`${deck.url}/plane/ledgers`)).body.ledgers,
      meter: await (await fetch(`${deck.url}/meter`, { headers: me.bearer })).text(),
    };
  } finally {
    await deck.stop();
  }
  await new TapeArchive(new FileTapeDays(source)).import('BTC', '1m', Array.from({ length: 5 }, (_, i) => [T0 + 60 * i, 10, 11, 9, 10.5, 3] as const).map((r) => [...r]));
});

describe('npm run store -- copy', () => {
  it('copies every document, ledger and tape day into the database and verifies every ledger there', async () => {
    const url = await freshDatabase();
    const copied = await runCli('store', ['copy', '--from', source, '--to', url], source);
    expect(copied.stderr).toBe('');
    expect(copied.code).toBe(0);
    expect(copied.stdout).toContain('1 tape days');
    expect(copied.stdout).toMatch(/ledger meter: \d+ entries, verified/);
    expect(copied.stdout).toContain('every ledger verified in the database');

    // A deck on the database alone (a data directory of its own, empty) answers as the deck on the files did.
    const deck = await testDeck({ DECK_DATA: await tempDir(), DECK_DATABASE_URL: url });
    try {
      expect(await (await fetch(`${deck.url}/me/marks`, { headers: me.bearer })).text()).toBe(before.marks);
      expect(await (await fetch(`${deck.url}/meter`, { headers: me.bearer })).text()).toBe(before.meter);
      expect((await call(`${deck.url}/plane/ledgers`)).body.ledgers).toEqual(before.ledgers);
      expect((await call(`${deck.url}/login`, { body: { key: me.key } })).status).toBe(200);
      const kept = await deck.services.store.archive.read('BTC', '1m', T0, T0 + 3600);
      expect(kept.rows.map((r) => r[0])).toEqual([0, 1, 2, 3, 4].map((i) => T0 + 60 * i));
    } finally {
      await deck.stop();
    }

    const again = await runCli('store', ['copy', '--from', source, '--to', url], source);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('the database already holds a store');
  });

  it('refuses a data directory whose ledger is broken, and writes nothing', async () => {
    const broken = await tempDir();
    const meter = (await readFile(join(source, 'meter.jsonl'), 'utf8')).split('\n');
    const first = JSON.parse(meter[0]!);
    first.entry.units += 1;
    await writeFile(join(broken, 'meter.jsonl'), [JSON.stringify(first), ...meter.slice(1)].join('\n'));
    await writeFile(join(broken, 'marks.json'), await readFile(join(source, 'marks.json')));
    const url = await freshDatabase();
    const refused = await runCli('store', ['copy', '--from', broken, '--to', url], broken);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the ledger meter breaks at entry 1 (hash does not match the entry): nothing was copied');
    // Nothing was written: a copy from the intact directory still finds the database empty.
    expect((await runCli('store', ['copy', '--from', source, '--to', url], source)).code).toBe(0);
  });

  it('says how to use it when asked wrongly', async () => {
    const wrong = await runCli('store', ['copy', '--from', source], source);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('usage: npm run store -- copy --from <data directory> --to postgres://');
  });
});
