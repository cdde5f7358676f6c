import { describe, expect, it } from 'vitest';
import { irOf, scriptOfReading, type Script } from '../decider/index.js';
import { rehearseScript, toyBars } from '../stepper/toy-bars.js';
import { readRule } from './read.js';

// Traders' phrasings from words to trades: each rule is read, becomes a script, a decider IR and a rehearsal over
// hand-made 1m bars, and the trades do what the words say. The bars start 2024-06-03 09:29 New York (EDT); bar 1
// closes above 100 (the signal) and the entry fills at bar 2's open, 100.5.

const T0 = Date.UTC(2024, 5, 3, 13, 29) / 1000;
type Row = [number, number, number, number];
const SETUP: Row[] = [
  [99, 99.5, 98.5, 99],
  [99, 100.5, 98.75, 100.25],
];
const QUIET: Row = [100.5, 101, 100, 100.75];
const t = (i: number, from = T0) => from + 60 * i;

function scriptOf(text: string): Script {
  const got = scriptOfReading(readRule(text));
  if (!got.ok) throw new Error(`${text}: ${got.message}`);
  return got.script;
}
const trades = (text: string, rows: Row[], from = T0) => rehearseScript(scriptOf(text), toyBars(rows, from)).trades;

describe('a rule that states no session, or no ATR length', () => {
  it('forges the rule of the report as it reads: six parts read and the session the market\'s default', () => {
    const reading = readRule('BTC 1m: go long when the close crosses above the 20 EMA. Stop 1.5 ATR(14) below entry. Take profit at 2R.');
    expect(reading.session).toMatchObject({ status: 'defaulted', value: { kind: 'always' }, defaults: [{ path: '', rule: 'session_crypto' }], spans: [{ text: 'BTC' }] });
    expect(scriptOfReading(reading)).toMatchObject({ ok: true, script: { session: { kind: 'always' } } });
  });

  it('trades a futures rule only in the cash session, and a crypto rule at any time', () => {
    // The signal bar closes at 09:27, before the cash open; nothing crosses again.
    const early: Row[] = [...SETUP, QUIET, QUIET, QUIET, QUIET, QUIET];
    const from = T0 - 4 * 60;
    expect(trades('ES 1m: buy when the close crosses above 100, stop 2 points, target 2R.', early, from)).toEqual([]);
    expect(trades('BTC 1m: buy when the close crosses above 100, stop 2 points, target 2R.', early, from)).toHaveLength(1);
  });

  it('measures an ATR of unstated length over 14 bars', () => {
    const ir = irOf(scriptOf('ES 1m: buy when the close crosses above 100, stop 1 ATR, target 2R.'));
    expect(ir.stop).toEqual({ kind: 'distance', distance: { unit: 'atr', mult: 1, series: 'atr_14' } });
    expect(ir.series.map((s) => s.id)).toContain('atr_14');
  });
});

describe('stops and targets in dollars', () => {
  it('are points of one E-mini contract: $200 on NQ is 10 points, $400 is 20', () => {
    const [trade] = trades('NQ 1m: buy when the close crosses above 100, $200 stop, $400 target.', [...SETUP, QUIET, [101, 121, 100.5, 120]]);
    expect(trade).toMatchObject({ entry: 100.5, stop: 90.5, exit: 120.5, r: 2, why: 'target' });
  });

  it('are points of one micro contract when the words name it: $40 on MNQ is 20 points', () => {
    const [trade] = trades('MNQ 1m: buy when the close crosses above 100, $40 stop, target 2R.', [...SETUP, QUIET]);
    expect(trade).toMatchObject({ entry: 100.5, stop: 80.5 });
  });

  it('are a price distance on a coin: $3 on BTC is 3 dollars of price', () => {
    const [trade] = trades('BTC 1m: buy when the close crosses above 100, stop 3 dollars, target 2R.', [...SETUP, QUIET]);
    expect(trade).toMatchObject({ entry: 100.5, stop: 97.5 });
  });
});

describe('stops at a bar the words point to', () => {
  it('put a stop below the signal candle a tick under its low', () => {
    const [trade] = trades('NQ 1m: buy when the close crosses above 100, stop below the signal candle, target 2R.', [...SETUP, QUIET]);
    expect(trade).toMatchObject({ entry: 100.5, stop: 98.5 });
  });

  it('put a stop at the lowest low of the bars before the signal bar', () => {
    const rows: Row[] = [[99, 99.5, 98.25, 99], ...SETUP, QUIET];
    const [trade] = trades('NQ 1m: buy when the close crosses above 100, stop at the lowest low of the last 2 bars, target 2R.', rows, T0 - 60);
    expect(trade).toMatchObject({ entry: 100.5, stop: 98.25 });
  });
});

describe("the session's first bar", () => {
  // From 09:30: five bars make the first 5-minute candle (high 101, low 99); the sixth breaks and closes above it.
  const from = T0 + 60;
  const opening: Row[] = [
    [100, 100.5, 99.5, 100],
    [100, 101, 99.75, 100.5],
    [100.5, 100.75, 99, 99.5],
    [99.5, 100.25, 99.25, 100],
    [100, 100.5, 99.75, 100.25],
    [100.25, 101.5, 100, 101.25],
    [101.25, 101.75, 101, 101.5],
  ];

  it('is the opening range of its size: a break of the first 5-minute candle\'s high, stopped at its low', () => {
    const text = "ES 1m: buy a break above the first 5-minute candle's high, stop at its low, target 2R.";
    expect(readRule(text).stop).toMatchObject({ status: 'read', value: { kind: 'level', where: 'at', level: { kind: 'opening_range', field: 'low', minutes: 5 } } });
    const [trade] = trades(text, opening, from);
    expect(trade).toMatchObject({ side: 'long', entry_t: t(6, from), entry: 101.25, stop: 99 });
  });

  it("is a bar of the chart's timeframe when the words give no size", () => {
    const ir = irOf(scriptOf("ES 5m: buy above the first bar's high, stop at the low of the first bar, target 2R."));
    expect(ir.series.map((s) => s.id)).toEqual(expect.arrayContaining(['opening_range_5_high', 'opening_range_5_low']));
  });
});

describe('entries whichever way the close goes through a line', () => {
  it('take the long when the close crosses up and the short when it crosses down', () => {
    const text = 'ES 1m: take whichever way the close crosses 100, stop 2 points, target 2R.';
    expect(readRule(text).side).toMatchObject({ status: 'read', value: 'both' });
    const rows: Row[] = [...SETUP, [100.5, 100.75, 98, 98.25], [98.25, 98.5, 97.5, 98], [98, 98.25, 92, 92.5]];
    const got = trades(text, rows);
    expect(got.map((x) => x.side)).toEqual(['long', 'short']);
    expect(got[1]).toMatchObject({ entry_t: t(3), entry: 98.25, stop: 100.25 });
  });
});

describe('exits when price comes back to a line', () => {
  it('leave at the next open after the bar that reaches the line', () => {
    const text = 'BTC 1m: buy when the close crosses above 100, stop 20 points, exit when price comes back to the 3 EMA.';
    expect(irOf(scriptOf(text)).exit_when).toEqual({ op: 'touches', level: { kind: 'point', at: { src: 'series', id: 'ema_3' } } });
    // After the entry the bars climb away from the 3 EMA, then one wide bar reaches back through it.
    // (a 3 EMA weighs each close by a half: 99.63 after the signal bar, then 102.81, 106.41, 103.2).
    const rows: Row[] = [...SETUP, [103, 106, 103, 106], [107, 110, 107, 110], [110, 111, 95, 100], [100, 100.5, 99.5, 100]];
    const [trade] = trades(text, rows);
    expect(trade).toMatchObject({ entry_t: t(2), entry: 103, exit_t: t(5), exit: 100, why: 'exit_rule' });
  });
});
