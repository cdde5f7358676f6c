import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signedIn } from '../test/support/deck.js';
import { grantsFile } from '../test/support/mcp.js';
import { startPostgres } from '../test/support/postgres-server.js';
import { databaseOn } from '../test/support/database-on.js';
import { spawnServer, type Child } from './child.js';
import { buildDeck } from './compiled.js';
import { load, type Shot } from './load.js';
import { loadLine, machineLine } from './machine.js';
import { num, ratios, spread, table, type Row } from './report.js';
import { spreadOf } from './spread.js';

// `npx tsx bench/store.ts`: requests per second of one deck on JSON files, one deck on PostgreSQL and three decks on
// one PostgreSQL database (each deck in its own process, built as `npm start` runs it), under a read-heavy and a
// write-heavy mix, in interleaved rounds so the machine's other work weighs on each alike; the ratios are per round.

const CONNECTIONS = 24;
const ROUNDS = 5;
const ROUND_SECONDS = 3;
const WARM_SECONDS = 2;

const log = (line: string) => process.stderr.write(`${line}\n`);

/** A setup under load: its decks (one or three) and the mixes, as a signed-in house principal sends them there. */
interface Setup {
  name: string;
  decks: Child[];
  mixes: Mix[];
}

interface Mix {
  name: string;
  shots: Shot[];
}

/** The two mixes: nine reads (marks, the meter) to one write (a meter entry, a ledger append), and half and half. */
function mixes(bearer: Record<string, string>): Mix[] {
  const json = { ...bearer, 'content-type': 'application/json' };
  const write: Shot = { method: 'POST', path: '/meter', headers: json, body: JSON.stringify({ action: 'forecast' }) };
  const reads: Shot[] = [
    { method: 'GET', path: '/me/marks', headers: bearer },
    { method: 'GET', path: '/meter', headers: bearer },
  ];
  return [
    { name: 'read-heavy (9 reads : 1 write)', shots: [...Array.from({ length: 9 }, (_, i) => reads[i % 2]!), write] },
    { name: 'write-heavy (1 read : 1 write)', shots: [reads[0]!, write] },
  ];
}

/** Loads every deck of a setup at once, the connections shared among them; answers requests per second in all. */
async function rps(setup: Setup, shots: Shot[], seconds: number): Promise<number> {
  const per = Math.floor(CONNECTIONS / setup.decks.length);
  const runs = await Promise.all(setup.decks.map((d) => load(d, shots, { connections: per, seconds })));
  return runs.reduce((sum, r) => sum + r.answered, 0) / Math.max(...runs.map((r) => r.seconds));
}

async function main(): Promise<void> {
  log(machineLine());
  const entry = await buildDeck();
  const postgres = await startPostgres();
  const scratch = await mkdtemp(join(tmpdir(), 'deck-bench-store-'));
  const grants = await grantsFile([{ name: 'bench_house', tier: 'house' }]);
  const started: Child[] = [];
  const deck = async (env: Record<string, string>) => {
    const dir = await mkdtemp(join(scratch, 'data-'));
    const child = await spawnServer(entry, { DECK_DATA: dir, DECK_LOG: 'info', DECK_GRANTS: grants, DECK_SAMPLE_TAPE: 'off', ...env });
    started.push(child);
    return child;
  };
  try {
    const one = await databaseOn(postgres.url);
    const shared = await databaseOn(postgres.url);
    const setups: Setup[] = [];
    for (const [name, decks] of [
      ['one deck, JSON files', [await deck({})]],
      ['one deck, PostgreSQL', [await deck({ DECK_DATABASE_URL: one })]],
      ['three decks, one PostgreSQL', await Promise.all([0, 1, 2].map(() => deck({ DECK_DATABASE_URL: shared })))],
    ] as const) {
      setups.push({ name, decks: [...decks], mixes: mixes((await signedIn(decks[0]!.url, 'bench_house')).bearer) });
    }
    const rows: Row[] = [];
    for (const [k, { name: mixName }] of setups[0]!.mixes.entries()) {
      const figures = new Map<string, number[]>(setups.map((s) => [s.name, []]));
      for (const s of setups) await rps(s, s.mixes[k]!.shots, WARM_SECONDS);
      for (let round = 0; round < ROUNDS; round++) {
        for (const s of setups) figures.get(s.name)!.push(await rps(s, s.mixes[k]!.shots, ROUND_SECONDS));
      }
      const json = figures.get(setups[0]!.name)!;
      for (const s of setups) {
        const mine = figures.get(s.name)!;
        rows.push({
          measure: `${mixName}: ${s.name}`,
          result: spread(spreadOf(mine), 'req/s', 0),
          ratio: s === setups[0] ? '1.00x' : `${ratios(spreadOf(mine.map((v, i) => v / json[i]!)))} of JSON`,
          goal: '',
          met: '',
        });
      }
      log(`${mixName}: ${setups.map((s) => `${s.name} ${num(spreadOf(figures.get(s.name)!).median, 0)} req/s`).join(', ')}`);
    }
    process.stdout.write(`${machineLine()}\n${loadLine()}\n${CONNECTIONS} connections, ${ROUNDS} rounds of ${ROUND_SECONDS} s each after ${WARM_SECONDS} s of warm-up\n\n${table(rows)}\n`);
  } finally {
    await Promise.all(started.map((c) => c.stop()));
    await postgres.stop();
    await rm(scratch, { recursive: true, force: true });
    await rm(join(grants, '..'), { recursive: true, force: true });
  }
}

await main();
