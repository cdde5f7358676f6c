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
import { loadLine, loadPerCore, machineLine } from './machine.js';
import { num, ratios, spread, table, verdict, type Row, type Trial } from './report.js';
import { spreadOf } from './spread.js';

// `npx tsx bench/store.ts`: requests per second of one deck on JSON files, one deck on PostgreSQL and three decks on
// one PostgreSQL database (each deck in its own process, built as `npm start` runs it), under a read-heavy and a
// write-heavy mix, in interleaved rounds so the machine's other work weighs on each alike; the ratios are per round.
// Under the write-heavy mix it also reads, from the decks' /metrics, how long a meter append held the chain's head
// locked: one deck against three, the time inside the lock that must not grow with the decks.

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

/** Appends that held the meter's head, and for how long in all (seconds), summed over a setup's decks. */
async function meterLockHeld(decks: readonly Child[]): Promise<{ count: number; sum: number }> {
  let count = 0;
  let sum = 0;
  for (const d of decks) {
    const text = await (await fetch(`${d.url}/metrics`)).text();
    count += Number(/^deck_ledger_lock_seconds_count\{ledger="meter"\} (\S+)$/m.exec(text)?.[1] ?? 0);
    sum += Number(/^deck_ledger_lock_seconds_sum\{ledger="meter"\} (\S+)$/m.exec(text)?.[1] ?? 0);
  }
  return { count, sum };
}

/** Milliseconds a meter append held the head, on average, between two readings. */
const heldMs = (before: { count: number; sum: number }, after: { count: number; sum: number }) => ((after.sum - before.sum) / Math.max(1, after.count - before.count)) * 1000;

/** The goal: the time inside the lock at three decks at most this many times one deck's (does not grow, with margin). */
const LOCK_GROWTH_GOAL = 1.25;

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
      const held = new Map<string, number[]>(setups.map((s) => [s.name, []]));
      const loads: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (const s of setups) {
          const before = await meterLockHeld(s.decks);
          figures.get(s.name)!.push(await rps(s, s.mixes[k]!.shots, ROUND_SECONDS));
          held.get(s.name)!.push(heldMs(before, await meterLockHeld(s.decks)));
        }
        loads.push(loadPerCore());
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
      if (mixName.startsWith('write-heavy')) {
        const [one, three] = [held.get(setups[1]!.name)!, held.get(setups[2]!.name)!];
        const growth = three.map((v, i) => v / one[i]!);
        const trials: Trial[] = growth.map((value, i) => ({ value, load: loads[i]! }));
        for (const [s, ms] of [[setups[1]!, one], [setups[2]!, three]] as const) {
          const isThree = s === setups[2];
          rows.push({
            measure: `${mixName}: a meter append's time inside the head's lock, ${s.name}`,
            result: spread(spreadOf(ms), 'ms', 3),
            ratio: isThree ? `${ratios(spreadOf(growth))} of one deck` : '1.00x',
            goal: isThree ? `at most ${LOCK_GROWTH_GOAL}x one deck's` : '',
            met: isThree ? verdict(trials, (v) => v <= LOCK_GROWTH_GOAL).text : '',
          });
        }
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
