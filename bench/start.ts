import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './child.js';
import { cpuMs } from './proc.js';

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

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
