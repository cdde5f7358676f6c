import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { signedIn } from '../test/support/deck.js';
import { spawnServer, type Child } from './child.js';
import { CORES, loadPerCore } from './machine.js';
import { num, type Row } from './report.js';
import { benchMonth } from './bars.js';
import { archiveTape } from './servers.js';
import { median, spreadOf } from './spread.js';
import { cpuMs, residentMiB } from './proc.js';
import { nearestRank } from '../engine/stepper/index.js';
import { concatBars } from '../engine/bars.js';
import { DECIDER_VERSION, irOf, type Script } from '../engine/decider/index.js';
import type { RehearsalJob } from '../engine/stepper/job.js';
import { WorkPool } from '../core/pool/pool.js';
import { EMA_CROSS } from '../test/fixtures/scripts.js';

// The work pool: the BTC 1m month (744 hours, 44,640 bars) rehearsed by N principals at once (each rehearsal with its
// 1,000-run null and verdict; one principal 4 in turn, two 2 each, so a round is never one sample) while another client
// asks, every 10 ms in turn, GET /health and a keyless MCP tools/call (strategies), on a deck as npm start runs it with
// its pool (one thread a core) and on the same deck with DECK_WORKERS=0 (every rehearsal on the event loop), the
// baseline, in the same run, ROUNDS rounds each. Rows: rehearsals a second at 1, 2, 8 and 32 at once, each light call's
// p50 / p99, the deck's resident memory at its highest, and one rehearsal alone on each. `npx tsx bench/pool.ts` runs
// it alone (after `npm run build`).

const AT_ONCE = [1, 2, 8, 32] as const;
/** Rehearsals each principal asks for one after another in a round: 4 a round at least, never one sample. */
const eachOf = (n: number): number => Math.max(1, Math.ceil(4 / n));
const HOURS = 744;
const PING_MS = 10;
const ROUNDS = 3;
const ALONE_RUNS = 7;
const PING_GOAL_MS = 50;
const THROUGHPUT_GOAL = 1.7;
const HAND_OFF_GOAL_MS = 5;

const dispatcher = new Agent({ connections: 64, keepAliveTimeout: 30_000 });

async function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, dispatcher });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
  return res.statusCode;
}

/** A percentile of the ping times, by the engine's own nearest rank. */
const nearest = (xs: number[], q: number): number => nearestRank(Float64Array.from(xs).sort(), q);

/** The light calls asked between rehearsals: the health probe, and a keyless MCP tools/call. */
const LIGHT = {
  health: { method: 'GET', path: '/health' },
  mcp: {
    method: 'POST',
    path: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'strategies', arguments: {} } }),
  },
} as const;
type Light = keyof typeof LIGHT;

interface Load {
  perSecond: number;
  pings: Record<Light, number[]>;
  /** The deck's resident memory at its highest while the rehearsals ran, MiB. */
  peakMiB: number;
}

/**
 * N principals rehearse at once, each `each` times one after another, while the pinger asks each light call in turn
 * every 10 ms; rehearsals a second, the light calls' times and the deck's resident memory, sampled as they run.
 */
async function atOnce(deck: Child, asks: { body: string; bearer: Record<string, string> }[], each: number): Promise<Load> {
  const pings: Record<Light, number[]> = { health: [], mcp: [] };
  let peakMiB = 0;
  let running = true;
  const pinger = (async () => {
    for (let i = 0; running; i++) {
      const light: Light = i % 2 === 0 ? 'health' : 'mcp';
      const { path, ...ask } = LIGHT[light];
      const t0 = performance.now();
      const res = await request(`${deck.url}${path}`, { ...ask, dispatcher });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}`);
      pings[light].push(performance.now() - t0);
      peakMiB = Math.max(peakMiB, await residentMiB(deck.pid));
      await new Promise((r) => setTimeout(r, PING_MS));
    }
  })();
  const t0 = performance.now();
  await Promise.all(asks.map(async (a) => {
    for (let k = 0; k < each; k++) await post(`${deck.url}/studio/rehearse`, a.body, a.bearer);
  }));
  const seconds = (performance.now() - t0) / 1000;
  running = false;
  await pinger;
  return { perSecond: (asks.length * each) / seconds, pings, peakMiB };
}

/** A deck on the month's archive with 32 house principals, each with the EMA cross forged. */
async function deckOf(built: string, scratch: string, name: string, env: Record<string, string>, started: Child[]) {
  const data = join(scratch, `data-${name}`);
  await archiveTape(data);
  const grants = join(scratch, `grants-${name}.json`);
  const names = Array.from({ length: Math.max(...AT_ONCE) }, (_, i) => `bench_pool_${i}`);
  await writeFile(grants, JSON.stringify({ grants: names.map((n) => ({ name: n, tier: 'house', why: 'the bench rehearses at once' })) }));
  const deck = await spawnServer(built, { DECK_DATA: data, DECK_TAPE_URL: undefined, DECK_GRANTS: grants, DECK_WORK_QUEUE: '256', DECK_JOIN_PER_CLIENT: '1000', ...env });
  started.push(deck);
  const { bars } = benchMonth();
  const to = bars.t[bars.length - 1]! + 60;
  const asks = [];
  for (const n of names) {
    const { bearer } = await signedIn(deck.url, n);
    const { intent } = (await (await fetch(`${deck.url}/forge?onboard=ema-cross`, { headers: bearer })).json()) as { intent: string };
    const forged = (await (await fetch(`${deck.url}/forge`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer }, body: JSON.stringify({ intent }) })).json()) as { seed_hash: string };
    asks.push({ bearer, body: JSON.stringify({ seed_hash: forged.seed_hash, hours: HOURS, to }) });
  }
  // The first rehearsals, one a thread at once, seal the tape's windows, start the pool's threads and compile the
  // rule on each (a thread keeps the deciders it compiled); they are not timed.
  await Promise.all(asks.slice(0, CORES).map((a) => post(`${deck.url}/studio/rehearse`, a.body, a.bearer)));
  return { deck, asks };
}

/** The pooled rehearsals' hand-offs so far, from the deck's /metrics: how many, and their seconds in all. */
async function handOffs(url: string): Promise<{ count: number; sum: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (part: string) => Number(new RegExp(`^deck_work_hand_off_seconds_${part}\\{kind="rehearsal"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return { count: read('count'), sum: read('sum') };
}

/**
 * One rehearsal alone, request to last byte, ALONE_RUNS times: the median, ms; and the cores the deck kept busy
 * meanwhile (its CPU, every thread's, over the time they took). A rehearsal alone is not one core's work: V8's own
 * threads compile and collect beside it, so N cores can give at most N over that figure at once.
 */
async function alone(deck: Child, ask: { body: string; bearer: Record<string, string> }): Promise<{ ms: number; cores: number }> {
  const ms: number[] = [];
  const [cpu0, wall0] = [await cpuMs(deck.pid), performance.now()];
  for (let i = 0; i < ALONE_RUNS; i++) {
    const t0 = performance.now();
    await post(`${deck.url}/studio/rehearse`, ask.body, ask.bearer);
    ms.push(performance.now() - t0);
  }
  const cores = ((await cpuMs(deck.pid)) - cpu0) / (performance.now() - wall0);
  return { ms: spreadOf(ms).median, cores };
}

/**
 * What this machine's cores give the work itself, with no deck: the month's rehearsal job (the EMA cross, its null and
 * verdict) on a work pool of one thread a core, one at a time and then one a thread at once, ROUNDS rounds; answers
 * the median ratio of jobs a second, and each round's. The deck's throughput at 8 at once is read against it.
 */
async function machineCeiling(): Promise<{ ratio: number; rounds: number[] }> {
  const threads = Math.max(1, CORES);
  const pool = new WorkPool({ threads, lane: 8, held: 64 });
  const { bars: month } = benchMonth();
  const bars = concatBars([month], true);
  const script: Script = { ...EMA_CROSS, market: 'BTC' };
  const job: RehearsalJob = {
    ir: irOf(script),
    seed: 'b'.repeat(64),
    version: DECIDER_VERSION,
    bars,
    // The rule trades from its 200th bar: the ones before warm its averages.
    options: { from: bars.t[200]!, marks: [], verdict: { script, version: DECIDER_VERSION, trials: { rules: 0, sharpes: [] } } },
  };
  const perSecond = async (atOnce: number, each: number) => {
    const t0 = performance.now();
    await Promise.all(Array.from({ length: atOnce }, async (_, i) => {
      for (let k = 0; k < each; k++) await pool.run('rehearsal', job, { owner: `ceiling ${i}` });
    }));
    return (atOnce * each) / ((performance.now() - t0) / 1000);
  };
  try {
    await perSecond(threads, 2);
    const rounds: number[] = [];
    for (let round = 0; round < ROUNDS; round++) rounds.push((await perSecond(threads, 3)) / (await perSecond(1, 3 * threads)));
    return { ratio: median(rounds), rounds };
  } finally {
    await pool.close();
  }
}

/** The median of the rounds' figures. */
const med = (loads: readonly Load[], of: (l: Load) => number): number => median(loads.map(of));
const p99Of = (light: Light) => (l: Load) => nearest(l.pings[light], 0.99);
const p50Of = (light: Light) => (l: Load) => nearest(l.pings[light], 0.5);

export async function poolPiece(built: string, scratch: string, started: Child[]): Promise<Row[]> {
  const load0 = loadPerCore();
  const pooled = await deckOf(built, scratch, 'pooled', {}, started);
  const loop = await deckOf(built, scratch, 'loop', { DECK_WORKERS: '0' }, started);
  try {
    const rows: Row[] = [];
    const figures = new Map<number, { pooled: Load[]; loop: Load[] }>(AT_ONCE.map((n) => [n, { pooled: [], loop: [] }]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const n of AT_ONCE) {
        const p = await atOnce(pooled.deck, pooled.asks.slice(0, n), eachOf(n));
        const l = await atOnce(loop.deck, loop.asks.slice(0, n), eachOf(n));
        figures.get(n)!.pooled.push(p);
        figures.get(n)!.loop.push(l);
        const light = (x: Load) => (['health', 'mcp'] as const).map((k) => `${k} ${p50Of(k)(x).toFixed(1)}/${p99Of(k)(x).toFixed(1)}`).join(', ');
        process.stderr.write(`  round ${round + 1}, ${n} at once: pooled ${p.perSecond.toFixed(2)}/s ${light(p)} ms; loop ${l.perSecond.toFixed(2)}/s ${light(l)} ms\n`);
      }
    }
    const ceiling = await machineCeiling();
    process.stderr.write(`  the machine's ceiling: ${ceiling.rounds.map((r) => r.toFixed(2)).join(', ')}x\n`);
    const before = await handOffs(pooled.deck.url);
    const pooledAlone = await alone(pooled.deck, pooled.asks[0]!);
    const after = await handOffs(pooled.deck.url);
    const handOff = ((after.sum - before.sum) / Math.max(1, after.count - before.count)) * 1000;
    const loopAlone = await alone(loop.deck, loop.asks[0]!);
    /** The most the machine's cores can give at once, against one rehearsal alone: all of them, over what it keeps busy. */
    const bound = `one rehearsal alone keeps ${num(pooledAlone.cores)} cores busy, so ${CORES} give at most ${num(CORES / pooledAlone.cores)}x`;
    const one = med(figures.get(1)!.pooled, (l) => l.perSecond);
    const load = Math.max(load0, loadPerCore());
    const state = `load ${load.toFixed(2)} per core`;
    for (const n of AT_ONCE) {
      const { pooled: p, loop: l } = figures.get(n)!;
      const perSecond = med(p, (x) => x.perSecond);
      const p99 = { health: med(p, p99Of('health')), mcp: med(p, p99Of('mcp')) };
      const pingGoal = n >= 8;
      const throughputGoal = n === 8;
      const goals = [
        pingGoal ? `/health and MCP tools/call p99 < ${PING_GOAL_MS} ms` : '',
        throughputGoal ? `>= ${THROUGHPUT_GOAL}x one at a time (this machine's ${CORES} cores give the rehearsal job itself, on the pool with no deck, ${num(ceiling.ratio)}x: ${ceiling.rounds.map((r) => num(r)).join(', ')}; ${bound})` : '',
      ]
        .filter(Boolean)
        .join('; ');
      const rounds = (ok: (x: Load) => boolean) => `${p.filter(ok).length} of ${ROUNDS} rounds`;
      const pingsMet = (x: Load) => p99Of('health')(x) < PING_GOAL_MS && p99Of('mcp')(x) < PING_GOAL_MS;
      const met = [
        pingGoal ? `${p99.health < PING_GOAL_MS && p99.mcp < PING_GOAL_MS ? 'yes' : 'NO'} (${rounds(pingsMet)})` : '',
        throughputGoal ? `${perSecond >= THROUGHPUT_GOAL * one ? 'yes' : 'NO'} (${rounds((x) => x.perSecond >= THROUGHPUT_GOAL * one)})` : '',
      ]
        .filter(Boolean)
        .join('; ');
      const lights = (loads: Load[]) => `/health ${num(med(loads, p50Of('health')))} / ${num(med(loads, p99Of('health')))} ms, MCP ${num(med(loads, p50Of('mcp')))} / ${num(med(loads, p99Of('mcp')))} ms`;
      rows.push({
        measure: `work pool: ${n} principal${n > 1 ? 's' : ''} rehearsing ${HOURS} h of BTC 1m at once (1,000-run null and verdict each${eachOf(n) > 1 ? `, ${eachOf(n)} in turn each` : ''}) while GET /health and a keyless MCP tools/call are asked in turn every ${PING_MS} ms, median of ${ROUNDS} rounds (light calls p50 / p99; memory: the deck's resident peak); baseline: the same deck with DECK_WORKERS=0 (${state})`,
        result: `${num(perSecond)} rehearsals/s (${num(perSecond / one)}x one at a time), ${lights(p)}, ${num(med(p, (x) => x.peakMiB))} MiB; baseline ${num(med(l, (x) => x.perSecond))}/s, ${lights(l)}, ${num(med(l, (x) => x.peakMiB))} MiB`,
        ratio: `${(perSecond / med(l, (x) => x.perSecond)).toFixed(2)}x the rehearsals/s`,
        goal: goals,
        met,
      });
    }
    rows.push({
      measure: `work pool: one rehearsal alone (${HOURS} h of BTC 1m), request to last byte, median of ${ALONE_RUNS}, its hand-off (the deck's deck_work_hand_off_seconds: its time in the pool less the thread's own count of its work, the mean of those runs) and the cores the deck kept busy (its CPU, every thread's, over the wall time); baseline: on the event loop (DECK_WORKERS=0)`,
      result: `${num(pooledAlone.ms)} ms, the hand-off ${num(handOff)} ms, ${num(pooledAlone.cores)} cores busy; baseline ${num(loopAlone.ms)} ms, ${num(loopAlone.cores)} cores busy`,
      ratio: `${(pooledAlone.ms / loopAlone.ms).toFixed(2)}x`,
      goal: `hand-off < ${HAND_OFF_GOAL_MS} ms`,
      met: handOff < HAND_OFF_GOAL_MS ? 'yes' : 'NO',
    });
    return rows;
  } finally {
    for (const d of [pooled.deck, loop.deck]) {
      await d.stop();
      started.splice(started.indexOf(d), 1);
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const scratch = await mkdtemp(join(tmpdir(), 'deck-bench-'));
  const started: Child[] = [];
  try {
    const { buildDeck } = await import('./compiled.js');
    for (const r of await poolPiece(await buildDeck(), scratch, started)) process.stdout.write(`${r.measure}: ${r.result} [${r.ratio}], goal ${r.goal}: ${r.met}\n`);
  } finally {
    await Promise.all(started.map((s) => s.stop()));
    await rm(scratch, { recursive: true, force: true });
    await dispatcher.close();
  }
}
