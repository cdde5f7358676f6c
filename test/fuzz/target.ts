import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { startVenue, sampleRows, type VenueFixture } from '../fixtures/venue.js';
import { signedIn, spawnDeck, type SpawnedDeck } from '../support/deck.js';
import type { Answer } from './verdict.js';

/** The fixed seed of every CI run; DECK_FUZZ_SEED and DECK_FUZZ_RUNS explore further. */
export const SEED = Number(process.env.DECK_FUZZ_SEED ?? 20261126);
export const runs = (ci: number): number => Number(process.env.DECK_FUZZ_RUNS ?? ci);
/** Each case has 2 s at most, so a run's bound follows from its count; a stalled deck fails the run, not the suite. */
export const FUZZ_TIMEOUT_MS = 600_000;

/** One request as a client may send it: any method, path, headers and raw body bytes. */
export interface Shot {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface FuzzTarget {
  url: string;
  /** The signed-in principal's session and key (so a test can tell they never reach the log). */
  session: string;
  key: string;
  /** Everything the deck has logged so far. */
  log(): string;
  send(shot: Shot): Promise<Answer>;
  /** Signs in again, after a fuzzed call rotated the key or ended the session. */
  refresh(key?: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A deck in its own process (from source, with the tsx loader), with a real venue behind it serving the shipped sample, so
 * fuzzed reads reach the tape, forecast and studio code rather than stopping at "not configured". The login
 * throttle is raised: the fuzzer sends bad bearers on purpose and must keep its own session usable.
 */
export async function fuzzTarget(): Promise<FuzzTarget> {
  const venue: VenueFixture = await startVenue({ 'BTC/1m': sampleRows('BTC-1m'), 'ES/1m': sampleRows('ES-1m') });
  const dataDir = await mkdtemp(join(tmpdir(), 'deck-fuzz-'));
  const deck: SpawnedDeck = await spawnDeck({
    DECK_DATA: dataDir,
    DECK_TAPE_URL: venue.url,
    DECK_JOIN_PER_CLIENT: '100000',
    DECK_JOIN_PER_DAY: '100000',
    DECK_LOGIN_REFUSALS: '100000',
    DECK_LOG: 'debug',
  });
  let log = '';
  deck.child.stderr!.on('data', (chunk: Buffer) => void (log += chunk.toString()));
  let principal = await signedIn(deck.url, 'fuzzer');
  const target: FuzzTarget = {
    url: deck.url,
    get session() {
      return principal.session;
    },
    get key() {
      return principal.key;
    },
    log: () => log,
    async send(shot) {
      const started = performance.now();
      const res = await request(`${deck.url}${shot.path}`, {
        method: shot.method as 'GET',
        headers: shot.headers,
        body: shot.body,
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      const text = await res.body.text();
      const contentType = res.headers['content-type'];
      return { status: res.statusCode, contentType: String(contentType ?? ''), text, ms: performance.now() - started };
    },
    async refresh(key) {
      const login = await fetch(`${deck.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: key ?? principal.key }) });
      const session = /deck_session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
      if (login.status !== 200 || !session) throw new Error(`the fuzzer could not sign in again: ${login.status}`);
      principal = { key: key ?? principal.key, session, bearer: { authorization: `Bearer ${session}` } };
    },
    async stop() {
      await deck.stop();
      await venue.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return target;
}

/** The deck still answers a plain read promptly: one bad request did not take it down or stall it. */
export async function stillAnswers(target: FuzzTarget): Promise<Answer> {
  return target.send({ method: 'GET', path: '/plans', headers: {} });
}
