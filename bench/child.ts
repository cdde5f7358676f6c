import { join } from 'node:path';
import { spawnServer as spawnListening } from '../test/support/spawn.js';

export const ROOT = join(import.meta.dirname, '..');

/** What a baseline logs once it listens: the deck's own log line, so one spawner serves every server. */
export const listening = (url: string) => process.stderr.write(`${JSON.stringify({ event: 'listening', url })}\n`);

export interface Child {
  url: string;
  pid: number;
  /** What the server logged up to its listening line. */
  logged: string;
  stop(): Promise<void>;
}

/** A server under load in its own process (see test/support/spawn.ts), with the pid the bench reads /proc by. */
export async function spawnServer(script: string, env: Record<string, string | undefined>): Promise<Child> {
  const s = await spawnListening(script, env);
  return { url: s.url, pid: s.child.pid!, logged: s.before, stop: s.stop };
}
