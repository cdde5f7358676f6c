import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig } from '../../config/env.js';
import { startDeck, type RunningDeck } from '../../deck.js';

export interface TestDeck extends RunningDeck {
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * A deck on a free port with its own temporary data directory, configured by `env` on top of defaults.
 * Every test joins from 127.0.0.1, so the per-client join limit is lifted unless a test sets it.
 */
export async function testDeck(env: Record<string, string> = {}): Promise<TestDeck> {
  const dataDir = env.DECK_DATA ?? (await mkdtemp(join(tmpdir(), 'deck-test-')));
  const deck = await startDeck(readConfig({ PORT: '0', HOST: '127.0.0.1', DECK_LOG: 'silent', DECK_JOIN_PER_CLIENT: '1000', ...env, DECK_DATA: dataDir }));
  return {
    ...deck,
    dataDir,
    async stop() {
      deck.server.closeAllConnections();
      await deck.close();
      if (!env.DECK_DATA) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SpawnedDeck {
  url: string;
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
}

/** The deck as `npm start` runs it, in its own process (for tests that kill it). */
export async function spawnDeck(env: Record<string, string>): Promise<SpawnedDeck> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'main.ts'], {
    cwd: join(import.meta.dirname, '..', '..'),
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DECK_LOG: 'info', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`the deck did not start: ${seen}`)), 20_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /"event":"listening","url":"([^"]+)"/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`the deck exited with ${code}: ${seen}`)));
  });
  return { url, child, exited };
}

/** Joins and signs in a principal; answers its key and session token. */
export async function signedIn(url: string, name: string, wallet?: string) {
  const joined = await fetch(`${url}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, ...(wallet ? { wallet } : {}) }) });
  if (joined.status !== 201) throw new Error(`join ${name}: ${joined.status} ${await joined.text()}`);
  const { key } = (await joined.json()) as { key: string };
  const login = await fetch(`${url}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key }) });
  if (login.status !== 200) throw new Error(`login ${name}: ${login.status} ${await login.text()}`);
  const cookie = login.headers.get('set-cookie') ?? '';
  const session = /deck_session=([^;]+)/.exec(cookie)?.[1];
  if (!session) throw new Error(`login ${name}: no deck_session cookie`);
  return { key, session, bearer: { authorization: `Bearer ${session}` } };
}
