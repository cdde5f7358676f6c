import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from '../test/support/free-port.js';
import { ROOT } from './child.js';
import type { BenchRow } from './indicators.js';
import { loadPerCore } from './machine.js';
import { groupCpuMs } from './proc.js';
import { medianVerdict, spread, spreadOfTrials, type Row, type Trial } from './report.js';
import { spreadOf } from './spread.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Start {
  /** Wall milliseconds from spawn to the first 200 answer to GET /plans. */
  ms: number;
  /** CPU milliseconds the process (with npm: npm, its shell and the deck) had spent by then (every thread). */
  cpuMs: number;
}

/**
 * Starts the deck with `<program> <args>` (node unless told) on fresh data, in a process group of its own, and waits
 * for its first answer to GET /plans; then ends the group.
 */
export async function firstAnswer(args: string[], program = process.execPath): Promise<Start> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'deck-bench-'));
  const started = performance.now();
  const child = spawn(program, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DECK_LOG: 'error', DECK_DATA: dataDir },
    stdio: 'ignore',
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${program} ${args.join(' ')} exited with ${child.exitCode} before answering`);
      const res = await fetch(`http://127.0.0.1:${port}/plans`).catch(() => null);
      if (res?.status === 200) {
        await res.arrayBuffer();
        return { ms: performance.now() - started, cpuMs: await groupCpuMs(child.pid!) };
      }
      await sleep(2);
    }
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** `npm start` as a person types it, on a tree with no build (it builds first) and on a built tree, `runs` times each. */
export async function npmStarts(runs: number): Promise<{ first: Start[]; built: Start[] }> {
  const first: Start[] = [];
  const built: Start[] = [];
  for (let i = 0; i < runs; i++) {
    await rm(join(ROOT, 'dist'), { recursive: true, force: true });
    first.push(await firstAnswer(['start'], 'npm'));
    built.push(await firstAnswer(['start'], 'npm'));
  }
  return { first, built };
}

/** The rows of npmStarts, with their goals: a first start builds in well under 5 s, a built tree answers in under 1 s. */
export function npmStartRows({ first, built }: { first: Start[]; built: Start[] }): BenchRow[] {
  const row = (name: string, runs: Start[], goalMs: number): BenchRow => {
    const ms = median(runs.map((r) => r.ms));
    return { name: `${name}, median of ${runs.length} (CPU ${median(runs.map((r) => r.cpuMs)).toFixed(0)} ms)`, value: ms, unit: 'ms', goal: `< ${goalMs} ms`, met: ms < goalMs };
  };
  return [
    row('npm start on a tree with no build (builds with esbuild, then starts), spawn to first answer', first, 5000),
    row('npm start on a built tree, spawn to first answer', built, 1000),
  ];
}

/** Wall milliseconds from spawning `node <args>` to its exit. */
export async function runToExit(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}`);
  return performance.now() - started;
}

const START_RUNS = 5;
const TSX_START = ['--import', 'tsx', 'main.ts'];

/** Start to first answer as npm start runs it (the goal's row), then from source with tsx and node alone (shown). */
export async function startPiece(built: string): Promise<Row[]> {
  const timedStarts = async (args: string[]) => {
    const trials: Trial[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < START_RUNS; i++) {
      const load = loadPerCore();
      const s = await firstAnswer(args);
      trials.push({ value: s.ms, load: Math.max(load, loadPerCore()) });
      cpu.push(s.cpuMs);
    }
    return { trials, result: `${spread(spreadOfTrials(trials), 'ms', 0)} (CPU ${spread(spreadOf(cpu), 'ms', 0)})` };
  };
  const deck = await timedStarts([built]);
  const tsx = await timedStarts(TSX_START);
  const alone = spreadOf([await runToExit(['-e', '0']), await runToExit(['-e', '0']), await runToExit(['-e', '0'])]);
  const withTsx = spreadOf([await runToExit(['--import', 'tsx', '-e', '0']), await runToExit(['--import', 'tsx', '-e', '0']), await runToExit(['--import', 'tsx', '-e', '0'])]);
  process.stderr.write(`  node dist/main.js ${deck.result}; tsx ${tsx.result}\n`);
  return [
    { measure: `start to first answer as npm start runs it (node dist/main.js), ${START_RUNS} starts`, result: deck.result, ratio: '', goal: 'median < 1000 ms', met: medianVerdict(deck.trials, (v) => v < 1000).text },
    { measure: `start to first answer from source with the tsx loader (as the tests run it), ${START_RUNS} starts`, result: tsx.result, ratio: '', goal: '', met: '' },
    { measure: 'start: node alone / node with the tsx loader, to exit, 3 each', result: `${spread(alone, 'ms', 0)} / ${spread(withTsx, 'ms', 0)}`, ratio: '', goal: '', met: '' },
  ];
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

// `npx tsx bench/start.ts [runs]`: the two npm start rows alone (it removes dist/ before each first start).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of npmStartRows(await npmStarts(Number(process.argv[2] ?? 3)))) process.stdout.write(`${r.name}: ${r.value.toFixed(0)} ms (goal ${r.goal}: ${r.met ? 'met' : 'NOT met'})\n`);
}

