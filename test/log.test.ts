import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedIn, spawnDeck, type SpawnedDeck } from './support/deck.js';
import { call } from './support/http.js';
import { internalFailure } from '../core/errors.js';

/** The house's secrets as an operator configures them: none may reach the log either. */
const HOUSE = { DECK_READER_KEY: 'sk-house-reader-0123456789', DECK_GRADER_KEY: 'sk-house-grader-0123456789' };

let deck: SpawnedDeck;
let dataDir: string;
let log = '';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'deck-log-'));
  deck = await spawnDeck({ DECK_DATA: dataDir, DECK_LOG: 'debug', DECK_GRADER_URL: 'http://127.0.0.1:9', DECK_READER_URL: 'http://127.0.0.1:9', ...HOUSE });
  deck.child.stderr!.on('data', (chunk: Buffer) => void (log += chunk.toString()));
});
afterAll(async () => {
  await deck.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** The log's lines as parsed events, once `count` lines of `event` have been written. */
async function events(event: string, count: number): Promise<Record<string, unknown>[]> {
  for (let waited = 0; ; waited += 50) {
    const lines = log.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    if (lines.filter((l) => l.event === event).length >= count || waited > 5_000) return lines;
    await sleep(50);
  }
}

describe('the log', () => {
  it('writes no key, session or house secret, whatever field carried it, percent-escaped or not', async () => {
    const me = await signedIn(deck.url, 'leaky');
    const body = me.key.slice('deck_live_'.length);
    const escaped = [...me.key].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    const urls = [
      `/skills/%zz${me.key}`,
      `/skills/%zz${me.session}`,
      `/me?key=${me.key}&session=${me.session}`,
      `/nowhere/${escaped}`,
      `/nowhere/%64eck_live_${body}`,
      `/nowhere?reader=${HOUSE.DECK_READER_KEY}&grader=${encodeURIComponent(HOUSE.DECK_GRADER_KEY)}`,
    ];
    for (const url of urls) expect((await fetch(`${deck.url}${url}`)).status, url).toBeGreaterThanOrEqual(400);
    const lines = await events('request', urls.length + 2);
    // Every request was logged, so the secrets had a line to be in.
    const requests = lines.filter((l) => l.event === 'request').map((l) => String(l.url));
    expect(requests.filter((u) => u.startsWith('/skills/%zz'))).toHaveLength(2);
    expect(requests.some((u) => u.includes('[redacted]'))).toBe(true);
    for (const secret of [me.key, body, me.session, me.session.slice(3), escaped, HOUSE.DECK_READER_KEY, HOUSE.DECK_GRADER_KEY]) expect(log).not.toContain(secret);
  });
});

describe("the deck's own failure", () => {
  it('answers a generic 500 naming no path and carrying no stack, and logs what failed', async () => {
    const me = await signedIn(deck.url, 'unlucky');
    // The marks file becomes a folder: the write's rename then fails inside the store, as the machine would fail it.
    await rm(join(dataDir, 'marks.json'), { force: true });
    await mkdir(join(dataDir, 'marks.json', 'inside'), { recursive: true });
    const res = await call(`${deck.url}/me/marks`, { body: { market: 'NQ', kind: 'level', price: 18000 }, headers: me.bearer });
    expect(res.status).toBe(500);
    expect(res.body).toEqual(internalFailure().body());
    const failed = (await events('route_failed', 1)).find((l) => l.event === 'route_failed')!;
    expect(failed).toMatchObject({ lvl: 'error', method: 'POST', path: '/me/marks' });
    expect(String(failed.error)).toContain('marks.json');
    expect(String(failed.stack)).toMatch(/\n\s+at /);
  });
});
