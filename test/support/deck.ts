import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig } from '../../config/env.js';
import { startDeck, type RunningDeck } from '../../deck.js';
import { spawnServer, type Spawned } from './spawn.js';

export interface TestDeck extends RunningDeck {
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * What a test deck runs with unless the test says otherwise. Tests state their own tape, so the sample the deck
 * seeds an empty archive with is off unless a test turns it on (DECK_SAMPLE_TAPE=on), and every answer is held to its
 * tool's output schema (DECK_CHECK_OUTPUT=1): an answer that drifts is a 500, so every test checks the answers it sees.
 */
// One pool thread a deck: every path still runs on a thread, and the suite's many decks each load one (from source a
// thread compiles the engine for itself, about a second of a core) rather than one a core.
const TESTING = { DECK_SAMPLE_TAPE: 'off', DECK_CHECK_OUTPUT: '1', DECK_WORKERS: '1' };

/**
 * A deck on a free port with its own temporary data directory, configured by `env` on top of defaults.
 * Every test joins from 127.0.0.1, so the per-client join limit is lifted unless a test sets it. `clock` is
 * one the test moves (milliseconds), when it needs time to pass.
 */
export async function testDeck(env: Record<string, string> = {}, clock?: () => number): Promise<TestDeck> {
  const dataDir = env.DECK_DATA ?? (await mkdtemp(join(tmpdir(), 'deck-test-')));
  const deck = await startDeck(readConfig({ PORT: '0', HOST: '127.0.0.1', DECK_LOG: 'silent', DECK_JOIN_PER_CLIENT: '1000', ...TESTING, ...env, DECK_DATA: dataDir }), clock);
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

export type SpawnedDeck = Spawned;

/** The deck as it runs from source, in its own process (for tests that kill it or read its log). */
export const spawnDeck = (env: Record<string, string>): Promise<SpawnedDeck> => spawnServer('main.ts', { ...TESTING, ...env });

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

/** The seed_hash of a forge of the onboarding EMA cross (ES, 1m), forged by the principal signed in with `bearer`. */
export async function forgedEmaCross(url: string, bearer: Record<string, string>): Promise<string> {
  const onboard = (await (await fetch(`${url}/forge?onboard=ema-cross`, { headers: bearer })).json()) as { intent: string };
  const forged = await fetch(`${url}/forge`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify({ intent: onboard.intent }) });
  if (forged.status !== 200) throw new Error(`forge: ${forged.status} ${await forged.text()}`);
  return ((await forged.json()) as { seed_hash: string }).seed_hash;
}

/**
 * Proves `wallet` for the principal signed in with `bearer`: the challenge GET /me/wallet gives, signed by the wallet
 * (EIP-191), sent back to POST /me/wallet. Answers the proof's answer.
 */
export async function proveWallet(url: string, bearer: Record<string, string>, wallet: { address: string; signMessage(message: string): Promise<string> }) {
  const got = await fetch(`${url}/me/wallet`, { headers: bearer });
  if (got.status !== 200) throw new Error(`wallet challenge: ${got.status} ${await got.text()}`);
  const { challenge } = (await got.json()) as { challenge: { message: string; nonce: string } };
  const proved = await fetch(`${url}/me/wallet`, {
    method: 'POST',
    headers: { ...bearer, 'content-type': 'application/json' },
    body: JSON.stringify({ wallet_hex: wallet.address, nonce: challenge.nonce, signature_hex: await wallet.signMessage(challenge.message) }),
  });
  if (proved.status !== 200) throw new Error(`wallet proof: ${proved.status} ${await proved.text()}`);
  return (await proved.json()) as Record<string, unknown>;
}
