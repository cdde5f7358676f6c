import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..');

/** What a baseline logs once it listens: the deck's own log line, so one spawner serves every server. */
export const listening = (url: string) => process.stderr.write(`${JSON.stringify({ event: 'listening', url })}\n`);

export interface Child {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * A server under test in its own process, ready once it logs the deck's `listening` line: compiled JavaScript
 * with plain node (the deck as `npm start` runs it), a TypeScript baseline with the tsx loader. `env` goes on
 * top of this process's environment (undefined unsets). Its log is drained so it never blocks on a full pipe.
 */
export async function spawnServer(script: string, env: Record<string, string | undefined>): Promise<Child> {
  const child = spawn(process.execPath, script.endsWith('.ts') ? ['--import', 'tsx', script] : [script], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DECK_LOG: 'info', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let tail = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start: ${tail}`)), 30_000);
    child.stderr.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-4096);
      const m = /"event":"listening","url":"([^"]+)"/.exec(tail);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}: ${tail}`)));
  });
  return {
    url,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
