import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { barsToRows, type BarRow } from '../engine/bars.js';
import { signedIn, testDeck, type TestDeck } from './support/deck.js';
import { call } from './support/http.js';
import { legacyClient } from './support/mcp.js';
import { sampleFile } from './support/tape-file.js';

// Plates draw settled indicators: a short window's lines are warmed over several look-backs of the archive's bars
// before it (read further back where a market's quiet minutes print no bar), and where the archive holds too little
// the plate's chart_state and legend say so. On a deck seeded from the shipped sample; the full-history values are
// recomputed here from the sample's own bars.

const at = (s: string) => Date.parse(s) / 1000;
const iso = (t: number) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');

/** EMA of the closes over every row given: seeded with the mean of the first n, then alpha 2 / (n + 1). */
function emaOver(rows: readonly BarRow[], n: number): number {
  let e = rows.slice(0, n).reduce((a, r) => a + r.c, 0) / n;
  for (const r of rows.slice(n)) e += (2 / (n + 1)) * (r.c - e);
  return e;
}

/** Wilder's ATR over every row given: the mean of the first n true ranges (the first row's is its range), then 1/n. */
function atrOver(rows: readonly BarRow[], n: number): number {
  const tr = (i: number) => {
    const { h, l } = rows[i]!;
    return i === 0 ? h - l : Math.max(h - l, Math.abs(h - rows[i - 1]!.c), Math.abs(l - rows[i - 1]!.c));
  };
  let a = 0;
  for (let i = 0; i < n; i++) a += tr(i) / n;
  for (let i = n; i < rows.length; i++) a += (tr(i) - a) / n;
  return a;
}

interface State {
  bars: { count: number };
  indicators: { spec: string; lines: { last: number }[]; warm_up: { bars: number; wanted: number; settled: boolean } }[];
}

let deck: TestDeck;
let me: Awaited<ReturnType<typeof signedIn>>;

async function plate(market: string, tf: string, from: number, to: number, indicators: string[]): Promise<State> {
  const sealed = await call(`${deck.url}/plates`, { body: { market, tf, from: iso(from), to: iso(to), indicators }, headers: me.bearer });
  expect(sealed.status).toBe(200);
  return (await fetch(sealed.body.json)).json() as Promise<State>;
}

beforeAll(async () => {
  deck = await testDeck({ DECK_SAMPLE_TAPE: 'on' });
  me = await signedIn(deck.url, 'warm-up');
});
afterAll(() => deck.stop());

describe('POST /plates: settled lines on a short window', () => {
  it('a 10-bar hourly plate draws EMA(21) and ATR(14) at their full-history values', async () => {
    const from = at('2013-10-20T00:00:00Z');
    const to = from + 10 * 3600;
    const state = await plate('BTC', '1h', from, to, ['ema:21', 'atr:14']);
    const history = barsToRows(sampleFile('BTC-1h')).filter((r) => r.t < to);
    expect(state.bars.count).toBe(10);
    expect(Math.abs(state.indicators[0]!.lines[0]!.last / emaOver(history, 21) - 1)).toBeLessThan(1e-5);
    expect(Math.abs(state.indicators[1]!.lines[0]!.last / atrOver(history, 14) - 1)).toBeLessThan(1e-5);
    expect(state.indicators.map((i) => i.warm_up)).toEqual([
      { bars: 105, wanted: 105, settled: true },
      { bars: 140, wanted: 140, settled: true },
    ]);
  });

  it('reads further back where quiet minutes printed no bar: BTC 1m of October 2016 warms its EMA(50) on 250 bars', async () => {
    const from = at('2016-10-08T12:00:00Z');
    const state = await plate('BTC', '1m', from, from + 60 * 60, ['ema:50']);
    const before = barsToRows(sampleFile('BTC-1m')).filter((r) => r.t < from);
    // The 250 minutes before the window printed fewer than 250 bars: the plate read on until it had them.
    expect(before.filter((r) => r.t >= from - 250 * 60).length).toBeLessThan(250);
    expect(state.indicators[0]!.warm_up).toEqual({ bars: 250, wanted: 250, settled: true });
    const history = barsToRows(sampleFile('BTC-1m')).filter((r) => r.t >= at('2016-10-07T00:00:00Z') && r.t < from + 3600);
    expect(Math.abs(state.indicators[0]!.lines[0]!.last / emaOver(history, 50) - 1)).toBeLessThan(1e-5);
  });

  it('says what the archive could not supply: ES from the sample\'s first session holds two hours before the window', async () => {
    const from = at('2013-10-07T00:00:00Z');
    const state = await plate('ES', '1h', from, from + 10 * 3600, ['ema:21', 'vwap']);
    // The sample starts at the Globex open, 2013-10-06 22:00 UTC: VWAP's CME day from its start, the EMA's 105 hours not.
    expect(state.indicators.map((i) => [i.spec, i.warm_up])).toEqual([
      ['ema:21', { bars: 2, wanted: 105, settled: false }],
      ['vwap', { bars: 2, wanted: 2, settled: true }],
    ]);
  });

  it('chart_image over MCP states the same warm-up', async () => {
    const client = await legacyClient(`${deck.url}/mcp`, me.bearer);
    try {
      const args = { market: 'ES', tf: '1h', from: '2013-10-07T00:00:00Z', to: '2013-10-07T10:00:00Z', indicators: ['ema:21'] };
      const got = (await client.callTool({ name: 'chart_image', arguments: args })).structuredContent as { chart_state: State };
      expect(got.chart_state.indicators[0]!.warm_up).toEqual({ bars: 2, wanted: 105, settled: false });
    } finally {
      await client.close();
    }
  });
});
