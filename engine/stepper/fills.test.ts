import { describe, expect, it } from 'vitest';
import type { Script } from '../decider/script.js';
import type { Condition } from '../reader/schema.js';
import { DEFAULT_COSTS } from './costs.js';
import { rehearseScript, toyBars } from './toy-bars.js';

// Hand-made ES 1m bars (tick 0.25). Bar 1 closes above 100 (the signal); the entry fills at bar 2's open, 100.5,
// with a 2-point stop at 98.5 and, unless a test says otherwise, a 2R target at 104.5. Costs are zero unless a
// test is about them.

/** 2024-06-03 09:29 New York (EDT): bar 1 is the 09:30 bar. */
const T0 = Date.UTC(2024, 5, 3, 13, 29) / 1000;
const closeCrosses = (op: 'crosses_above' | 'crosses_below', value: number): Condition => ({
  op,
  left: { kind: 'price', field: 'close' },
  right: { kind: 'constant', value },
});

const rule = (over: Partial<Script> = {}): Script => ({
  version: 'script.v1',
  market: 'ES',
  timeframe: '1m',
  session: { kind: 'always' },
  side: 'long',
  entry: { triggers: [{ side: 'long', when: closeCrosses('crosses_above', 100) }] },
  stop: { kind: 'distance', distance: { unit: 'points', n: 2 } },
  exit: { target: { kind: 'distance', distance: { unit: 'r', n: 2 } } },
  ...over,
});

type Row = [number, number, number, number];
const SETUP: Row[] = [
  [99, 99.5, 98.5, 99],
  [99, 100.5, 98.75, 100.25],
];
const QUIET: Row = [100.5, 101, 100, 100.75];
const run = (script: Script, rows: Row[], options = {}) => rehearseScript(script, toyBars([...SETUP, ...rows], T0), options);
const t = (i: number) => T0 + 60 * i;

describe('the stepper fills', () => {
  it('enters at the next bar open after the signal bar closes, and closes a trade still open at the last close', () => {
    const r = run(rule(), [QUIET, [100.75, 101, 100.25, 100.5]]);
    expect(r.trades).toEqual([{ side: 'long', entry_t: t(2), entry: 100.5, stop: 98.5, target: 104.5, exit_t: t(4), exit: 100.5, r: 0, why: 'end_of_data' }]);
  });

  it('takes the stop first when one bar reaches both the stop and the target', () => {
    const [trade] = run(rule(), [[100.5, 105, 98, 101]]).trades;
    expect(trade).toMatchObject({ exit: 98.5, exit_t: t(2), r: -1, why: 'stop' });
  });

  it('fills a gap through the stop at the open, for more than 1R', () => {
    const [trade] = run(rule(), [QUIET, [97, 97.5, 96.5, 97]]).trades;
    expect(trade).toMatchObject({ exit: 97, exit_t: t(3), r: -1.75, why: 'stop' });
  });

  it('fills the target at the target, and a gap beyond it at the open', () => {
    expect(run(rule(), [QUIET, [101, 104.75, 100.75, 104]]).trades[0]).toMatchObject({ exit: 104.5, r: 2, why: 'target' });
    expect(run(rule(), [QUIET, [105, 106, 104.75, 105.5]]).trades[0]).toMatchObject({ exit: 105, r: 2.25, why: 'target' });
  });

  it('trails the stop behind the best price at each close and never lowers it', () => {
    const trailing = rule({ exit: { trail: { kind: 'distance', distance: { unit: 'points', n: 1.5 } } } });
    const [trade] = run(trailing, [
      [100.5, 101, 100.25, 100.75],
      [100.75, 103, 100.5, 102.75],
      [102.5, 102.75, 101, 101.25],
    ]).trades;
    expect(trade).toMatchObject({ stop: 98.5, exit: 101.5, exit_t: t(4), r: 0.5, why: 'trail' });
  });

  it('moves the stop to the entry once price has gone 1R its way', () => {
    const be = rule({
      stop: { kind: 'distance', distance: { unit: 'points', n: 2 }, breakeven: { unit: 'r', n: 1 } },
      exit: { target: { kind: 'distance', distance: { unit: 'r', n: 3 } } },
    });
    const [trade] = run(be, [
      [100.5, 102.75, 100.25, 102.5],
      [102.25, 102.5, 100, 100.25],
    ]).trades;
    expect(trade).toMatchObject({ exit: 100.5, r: 0, why: 'breakeven' });
  });

  it('closes a time exit at the close of the last bar it allows', () => {
    const flat: Row[] = [QUIET, [100.75, 101, 100.25, 100.5], [100.5, 101.25, 100.25, 101], [101, 101, 100.5, 100.75]];
    const bars = run(rule({ exit: { time: [{ kind: 'bars', n: 3 }] } }), flat).trades[0];
    expect(bars).toMatchObject({ exit: 101, exit_t: t(5), r: 0.25, why: 'time' });
    const minutes = run(rule({ exit: { time: [{ kind: 'minutes', n: 2 }] } }), flat).trades[0];
    expect(minutes).toMatchObject({ exit: 100.5, exit_t: t(4), r: 0, why: 'time' });
  });

  it('is flat when its session window ends, and arms only inside it', () => {
    const flat: Row[] = Array.from({ length: 6 }, () => QUIET);
    const windowed = (from: string, to: string) =>
      rule({ session: { kind: 'windows', zone: 'America/New_York', windows: [{ from, to }] }, exit: { time: [{ kind: 'bars', n: 50 }] } });
    const [trade] = run(windowed('09:30', '09:35'), flat).trades;
    expect(trade).toMatchObject({ entry_t: t(2), exit_t: Date.UTC(2024, 5, 3, 13, 35) / 1000, why: 'session_end' });
    expect(run(windowed('10:00', '11:00'), flat).trades).toEqual([]);
  });

  it('closes at a clock time in the rule\'s zone', () => {
    const clock = rule({ exit: { time: [{ kind: 'clock', at: '09:33', zone: 'America/New_York' }] } });
    const [trade] = run(clock, [QUIET, QUIET, QUIET, QUIET]).trades;
    expect(trade).toMatchObject({ exit_t: Date.UTC(2024, 5, 3, 13, 33) / 1000, why: 'clock' });
  });

  it('fills a rule exit at the next open after the bar whose close fired it', () => {
    const exitRule = rule({ exit: { when: closeCrosses('crosses_below', 100) } });
    const [trade] = run(exitRule, [QUIET, [100.75, 100.75, 99.5, 99.75], [99.5, 100, 99.25, 99.75]]).trades;
    expect(trade).toMatchObject({ exit: 99.5, exit_t: t(4), r: -0.5, why: 'exit_rule' });
  });

  it('charges slippage in ticks on market and stop fills, none on the target, and fees on both sides', () => {
    const costs = DEFAULT_COSTS.ES;
    expect(costs).toEqual({ slippage_ticks: 1, fee: { per_side: 0.04, unit: 'points' } });
    const stopped = run(rule(), [[100.5, 101, 98.5, 99]], { costs }).trades[0];
    // Entry 100.5 + 0.25; stop 2 points under the fill; stop fill 0.25 under the stop; fees 2 x 0.04.
    expect(stopped).toMatchObject({ entry: 100.75, stop: 98.75, exit: 98.5, r: -1.165, why: 'stop' });
    const won = run(rule(), [[100.5, 105, 100.5, 104]], { costs }).trades[0];
    expect(won).toMatchObject({ entry: 100.75, exit: 104.75, r: 1.96, why: 'target' });
  });

  it('mirrors every rule for a short', () => {
    const short = rule({ side: 'short', entry: { triggers: [{ side: 'short', when: closeCrosses('crosses_below', 100) }] } });
    const bars: Row[] = [
      [101, 101.5, 100.5, 101],
      [101, 101.25, 99.5, 99.75],
      [99.5, 99.75, 95, 95.5],
    ];
    const [trade] = rehearseScript(short, toyBars(bars, T0)).trades;
    expect(trade).toMatchObject({ side: 'short', entry: 99.5, stop: 101.5, exit: 95.5, r: 2, why: 'target' });
  });

  it('skips an entry whose stop would not be beyond the fill', () => {
    const atSignalLow = rule({ stop: { kind: 'level', where: 'at', level: { kind: 'bar', bar: 'signal', field: 'low' } } });
    const r = run(atSignalLow, [[98.5, 99, 98, 98.75]]);
    expect(r.trades).toEqual([]);
    expect(r.skipped).toBe(1);
  });

  it('reads the trader\'s marks: a break of a zone, a stop one tick below it, a target at the next mark up', () => {
    const marks = rule({
      entry: { triggers: [{ side: 'long', when: { op: 'breaks_above', level: { kind: 'mark', shape: 'zone' } } }] },
      stop: { kind: 'level', where: 'below', level: { kind: 'mark', shape: 'zone' } },
      exit: { target: { kind: 'level', level: { kind: 'mark', shape: 'any' } } },
    });
    const rows: Row[] = [
      [100.25, 100.75, 100, 100.5],
      [100.5, 101.5, 100.25, 101.25],
      [101.5, 102, 101, 101.75],
      [101.75, 105.25, 101.5, 105],
    ];
    const r = rehearseScript(marks, toyBars(rows, T0), {
      marks: [
        { kind: 'zone', price: 101, price2: 100 },
        { kind: 'level', price: 105 },
        { kind: 'level', price: 95 },
      ],
    });
    expect(r.trades).toEqual([{ side: 'long', entry_t: t(2), entry: 101.5, stop: 99.75, target: 105, exit_t: t(3), exit: 105, r: 2, why: 'target' }]);
  });

  it('takes neither side when both triggers fire on one bar', () => {
    const both = rule({
      side: 'both',
      entry: {
        triggers: [
          { side: 'long', when: { op: 'above', left: { kind: 'price', field: 'close' }, right: { kind: 'constant', value: 90 } } },
          { side: 'short', when: { op: 'below', left: { kind: 'price', field: 'close' }, right: { kind: 'constant', value: 200 } } },
        ],
      },
    });
    expect(run(both, [QUIET, QUIET]).trades).toEqual([]);
  });
});
