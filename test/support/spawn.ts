import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export interface Spawned {
  url: string;
  child: ChildProcess;
  /** What the process logged up to its `listening` line (the last 16 KiB of it). */
  before: string;
  /** Resolves with the exit code (null when a signal ended it) once the process has exited. */
  exited: Promise<number | null>;
  /** Ends the process with SIGTERM and waits for it. */
  stop(): Promise<void>;
}

/**
 * A server in its own process, ready once it logs the deck's `listening` line: compiled JavaScript with plain node
 * (the deck as `npm start` runs it), TypeScript with the tsx loader. `env` goes on top of this process's
 * environment (undefined unsets). Its log is drained so the process never blocks on a full pipe.
 */
export async function spawnServer(script: string, env: Record<string, string | undefined>): Promise<Spawned> {
  const child = spawn(process.execPath, script.endsWith('.ts') ? ['--import', 'tsx', script] : [script], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DECK_LOG: 'info', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let tail = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start: ${tail}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-16_384);
      const m = /"event":"listening","url":"([^"]+)"/.exec(tail);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    // A signal says who ended it: SIGKILL from a crash point (DECK_CRASH_AT) written at start, or something outside.
    child.on('exit', (code, signal) => reject(new Error(`${script} exited with ${code ?? signal} before it listened: ${tail}`)));
  });
  return {
    url,
    before: tail,
    child,
    exited,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
