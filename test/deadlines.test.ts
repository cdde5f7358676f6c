import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDrip, type DripFixture, type Dripped } from './fixtures/drip.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { grantsFile } from './support/mcp.js';

// Every outbound request has one deadline for the whole exchange, body included, and what the deck asks on one
// request's behalf alone stops when that request ends. The upstream here answers at once and then feeds its body one
// byte a second, forever: a deadline between bytes (undici's bodyTimeout, a socket's idle timeout) never comes.

let drip: DripFixture;
const decks: TestDeck[] = [];
let grants: string;

const deckOn = async (env: Record<string, string>) => {
  const d = await testDeck(env);
  decks.push(d);
  return d;
};

/** The exchanges the fixture held for paths starting with `prefix`. */
const heldFor = (prefix: string): Dripped[] => drip.held.filter((d) => d.path.startsWith(prefix));

/** Waits (up to 5 s) until every exchange for `prefix` was let go, and answers them. */
async function letGo(prefix: string): Promise<Dripped[]> {
  for (let i = 0; i < 100 && heldFor(prefix).some((d) => d.closedAt === null); i++) await new Promise((r) => setTimeout(r, 50));
  return heldFor(prefix);
}

/** Times a call: its answer and how long it took. */
async function timed<T>(work: () => Promise<T>): Promise<{ answer: T; ms: number }> {
  const started = Date.now();
  const answer = await work();
  return { answer, ms: Date.now() - started };
}

beforeAll(async () => {
  drip = await startDrip();
  grants = await grantsFile([
    { name: 'dl_plan', tier: 'plan' },
    { name: 'dl_forecast', tier: 'plan' },
  ]);
});
afterAll(async () => {
  await Promise.all(decks.map((d) => d.stop()));
  await drip.close();
  await rm(dirname(grants), { recursive: true, force: true });
});

describe('an upstream that feeds its answer a byte a second', () => {
  it('is cut at the deadline for the whole exchange: the identity door at 5 s, the forecast sidecar at 10 s, the venue at 5 s an attempt', async () => {
    const doored = await deckOn({ DECK_DOOR_URL: `${drip.url}/door` });
    const forecast = await deckOn({ DECK_FORECAST_URL: `${drip.url}/sidecar`, DECK_GRANTS: grants });
    const venue = await deckOn({ DECK_TAPE_URL: `${drip.url}/venue` });
    const [fWho, vWho] = await Promise.all([signedIn(forecast.url, 'dl_forecast'), signedIn(venue.url, 'dl_venue')]);
    const [join, lens, candles] = await Promise.all([
      timed(() => call(`${doored.url}/join`, { body: { name: 'dl_joiner' } })),
      timed(() => call(`${forecast.url}/forecast/health`, { headers: fWho.bearer })),
      timed(() => call(`${venue.url}/timetravel/candles/BTC/1m?from=1475280000&to=1475283600`, { headers: vWho.bearer })),
    ]);

    expect(join.answer.status).toBe(503);
    expect(join.answer.body.message).toContain('no answer within 5 s');
    expect(join.ms).toBeGreaterThanOrEqual(4_900);
    expect(join.ms).toBeLessThan(8_000);

    expect(lens.answer.status).toBe(502);
    expect(lens.answer.body.message).toContain('no answer within 10 s');
    expect(lens.ms).toBeGreaterThanOrEqual(9_900);
    expect(lens.ms).toBeLessThan(13_000);

    // Three attempts of 5 s each, 100 and 300 ms apart.
    expect(candles.answer.status).toBe(502);
    expect(candles.answer.body.message).toContain('no answer within 5 s');
    expect(candles.ms).toBeGreaterThanOrEqual(15_300);
    expect(candles.ms).toBeLessThan(19_000);

    // And the deck let go of each exchange at its deadline, not only answered its own caller then.
    for (const [prefix, deadline] of [['/door', 5_000], ['/sidecar', 10_000], ['/venue', 5_000]] as const) {
      const held = await letGo(prefix);
      expect(held.length, prefix).toBeGreaterThan(0);
      for (const d of held) {
        expect(d.closedAt, prefix).not.toBeNull();
        expect(d.closedAt! - d.openedAt, prefix).toBeLessThan(deadline + 1_500);
      }
    }
  }, 40_000);
});

describe('a client that leaves', () => {
  /** Sends a request, leaves it after a second, and answers how long after leaving the upstream was let go. */
  async function leave(url: string, body: unknown, bearer: Record<string, string>, prefix: string): Promise<number> {
    const leaving = new AbortController();
    const asked = fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer }, body: JSON.stringify(body), signal: leaving.signal }).catch(() => null);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(heldFor(prefix).length, `${prefix} was asked`).toBe(1);
    const left = Date.now();
    leaving.abort();
    await asked;
    const [held] = await letGo(prefix);
    expect(held!.closedAt, `${prefix} was let go`).not.toBeNull();
    return held!.closedAt! - left;
  }

  it('cancels the chat lane it was asking, long before the lane\'s 60 s', async () => {
    const d = await deckOn({ DECK_CHAT_URL: `${drip.url}/chat`, DECK_CHAT_MODEL: 'dl-model' });
    const who = await signedIn(d.url, 'dl_chatter');
    expect(await leave(`${d.url}/chat`, { messages: [{ role: 'user', content: 'hello' }] }, who.bearer, '/chat')).toBeLessThan(1_500);
  }, 20_000);

  it("cancels the model reader it was asking, long before the reader's 60 s", async () => {
    const d = await deckOn({ DECK_READER_URL: `${drip.url}/reader`, DECK_GRANTS: grants });
    const who = await signedIn(d.url, 'dl_plan');
    const intent = 'ES on the 5 minute chart: go long when the 9 EMA crosses above the 21 EMA. Stop 2 ATR(14). Target 2R.';
    expect(await leave(`${d.url}/forge`, { intent, lane: 'model' }, who.bearer, '/reader')).toBeLessThan(1_500);
  }, 20_000);
});
