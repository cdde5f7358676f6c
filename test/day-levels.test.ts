import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { barsToRows } from '../engine/bars.js';
import { DEFAULT_COSTS, slippageOf } from '../engine/stepper/costs.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { legacyClient } from './support/mcp.js';
import { sampleFile } from './support/tape-file.js';

// A rule on the prior day's level, forged from words and rehearsed by a deck seeded from the shipped sample, enters on
// the first bar of a new day when that bar goes through the day just ended: the level in force for the bar, with the
// bar before held to it too. The entries are checked here against the sample's own bars.

const at = (s: string) => Date.parse(s) / 1000;
const openAt = (name: string, t: number): number => barsToRows(sampleFile(name)).find((r) => r.t === t)!.o;
const tick = (x: number, ticks: number) => Math.round(x * ticks) / ticks;

let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  deck = await testDeck({ DECK_SAMPLE_TAPE: 'on' });
  me = await signedIn(deck.url, 'day-levels');
});
afterAll(() => deck.stop());

async function rehearsed(intent: string, to: number, hours: number) {
  const forged = await call(`${deck.url}/forge`, { body: { intent }, headers: me.bearer });
  expect(forged.status).toBe(200);
  const body = { seed_hash: forged.body.seed_hash, to, hours };
  const rest = await call(`${deck.url}/studio/rehearse`, { body, headers: me.bearer });
  expect(rest.status).toBe(200);
  return { body, trades: rest.body.trades as { side: string; entry_t: number; entry: number }[] };
}

describe('a break of the prior day at midnight UTC (BTC 1h, the 2013 sample)', () => {
  it('enters at 01:00 on 14 October: the 00:00 bar went through the 13th\'s high though the 13th closed above the 12th\'s', async () => {
    const intent = 'BTC hourly chart, around the clock: go long when price breaks above the prior day high. Stop 2 ATR(14). Exit after 3 bars.';
    const { body, trades } = await rehearsed(intent, at('2013-10-15T00:00:00Z'), 72);
    const fill = at('2013-10-14T01:00:00Z');
    const entry = tick(openAt('BTC-1h', fill) + slippageOf('BTC', DEFAULT_COSTS.BTC), 100);
    expect(trades.find((x) => x.entry_t === fill)).toMatchObject({ side: 'long', entry });
    // The rehearse tool over MCP trades it the same.
    const client = await legacyClient(`${deck.url}/mcp`, me.bearer);
    try {
      const got = (await client.callTool({ name: 'rehearse', arguments: body })).structuredContent as { trades: typeof trades };
      expect(got.trades).toEqual(trades);
    } finally {
      await client.close();
    }
  });
});

describe('a close through the settle at a new CME day (ES 1m, 22:00 UTC in October 2013)', () => {
  it('enters at 22:01 on 10 October: the first close of the day, 1683.50, over the day just settled at 1682.50', async () => {
    const intent = 'ES 1 minute chart, around the clock: go long when the close crosses above the prior day settle. Stop 2 points. Exit after 5 bars.';
    const { trades } = await rehearsed(intent, at('2013-10-11T00:00:00Z'), 24);
    const fill = at('2013-10-10T22:01:00Z');
    const entry = tick(openAt('ES-1m', fill) + slippageOf('ES', DEFAULT_COSTS.ES), 4);
    expect(trades.find((x) => x.entry_t === fill)).toMatchObject({ side: 'long', entry });
  });
});
