import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './child.js';
import { loadPerCore } from './machine.js';
import { cpuMs } from './proc.js';
import { medianVerdict, spread, spreadOfTrials, type Row, type Trial } from './report.js';
import { spreadOf } from './spread.js';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Start {
  /** Wall milliseconds from spawn to the first 200 answer to GET /plans. */
  ms: number;
  /** CPU milliseconds the process had spent by then (every thread). */
  cpuMs: number;
}

/** Starts the deck with `node <args>` on fresh data and waits for its first answer to GET /plans. */
export async function firstAnswer(args: string[]): Promise<Start> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'deck-bench-'));
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DECK_LOG: 'error', DECK_DATA: dataDir },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`node ${args.join(' ')} exited with ${child.exitCode} before answering`);
      const res = await fetch(`http://127.0.0.1:${port}/plans`).catch(() => null);
      if (res?.status === 200) {
        await res.arrayBuffer();
        return { ms: performance.now() - started, cpuMs: await cpuMs(child.pid!) };
      }
      await sleep(2);
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  }
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
