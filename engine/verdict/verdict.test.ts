import { describe, expect, it, vi } from 'vitest';
import { sampleFile } from '../../test/support/tape-file.js';
import { EMA_CROSS } from '../../test/fixtures/scripts.js';
import { firstAtOrAfter, windowOf } from '../bars.js';
import { compileDecider, DECIDER_VERSION, irOf, PHASE, seedHash, seriesOf, type Decider, type Script } from '../decider/index.js';
import { DEFAULT_COSTS, fillOf, Machine, rehearse } from '../stepper/index.js';
import { TradeColumns } from '../stepper/trade-columns.js';
import { lookAheadOf, warmUpsOf } from './bias.js';
import { costsOf } from './costs.js';
import { gridOf, MAX_NEIGHBOURS } from './grid.js';
import { neighbourhoodOf } from './neighbourhood.js';
import { VerdictSchema } from './schema.js';

vi.setConfig({ testTimeout: 120_000 });

// The verdict over real bars (the shipped ES week): its neighbourhood, its bias checks, its costs, its words.

const ES = sampleFile('ES-1m');
const TO = ES.t[ES.length - 1]! + 60;
const FROM = TO - 24 * 3600;
const ES_CROSS: Script = { ...EMA_CROSS, market: 'ES' };

function ruleOf(script: Script) {
  const ir = irOf(script);
  const seed = seedHash(ir, DECIDER_VERSION);
  return { ir, seed, decider: compileDecider(ir, seed, DECIDER_VERSION) };
}

describe('the neighbourhood', () => {
  it('moves each number of the words to its neighbours: 9 EMA to 8 and 10, 2R to 1.5R and 2.5R; alone and in pairs, 2k² + 1 rules', () => {
    const { numbers, rules } = gridOf(EMA_CROSS, 1);
    expect(numbers).toEqual([
      { name: 'EMA length 9', value: 9, values: [8, 9, 10] },
      { name: 'EMA length 21', value: 21, values: [19, 21, 23] },
      { name: 'stop 2 atr', value: 2, values: [1.5, 2, 2.5] },
      { name: 'ATR length 14', value: 14, values: [13, 14, 15] },
      { name: 'target 2 r', value: 2, values: [1.5, 2, 2.5] },
    ]);
    expect(rules).toHaveLength(2 * 5 * 5 + 1);
    expect(rules[0]!.script).toEqual(EMA_CROSS);
    expect(new Set(rules.map((r) => JSON.stringify(r.values))).size).toBe(rules.length);
    // One number moved moves it wherever the words say it: both triggers read the 8 EMA.
    const eight = rules.find((r) => r.values[0] === 8 && r.values.slice(1).join() === '21,2,14,2')!;
    expect(JSON.stringify(eight.script.entry)).not.toContain('"n":9');
    expect(rules.every((r) => r.values.filter((v, i) => v !== numbers[i]!.value).length <= 2)).toBe(true);
    expect(MAX_NEIGHBOURS).toBeGreaterThanOrEqual(rules.length);
  });

  it('steps each neighbour with the decider it shares with its shape: the same trades as its own compiled decider', () => {
    const { ir, seed, decider } = ruleOf(ES_CROSS);
    const bars = ES;
    const series = seriesOf(ir, bars);
    const costs = DEFAULT_COSTS.ES;
    const { trades } = new Machine(decider, series, fillOf(ir, costs)).run(0, bars.length);
    const hood = neighbourhoodOf({ script: ES_CROSS, version: DECIDER_VERSION, bars, marks: [], costs, start: 0, end: bars.length, rule: { ir, decider, series, trades }, known: new Map() });
    expect(hood.runs).toHaveLength(51);
    expect(new Set(hood.runs.map((r) => r.decider)).size).toBeLessThan(12);
    for (const run of hood.runs) {
      const own = compileDecider(run.ir, seedHash(run.ir, DECIDER_VERSION), DECIDER_VERSION);
      const alone = new Machine(own, seriesOf(run.ir, bars), fillOf(run.ir, costs)).run(0, bars.length).trades;
      const shared = new Machine(run.decider, run.series, fillOf(run.ir, costs)).run(0, bars.length).trades;
      expect(shared, JSON.stringify(run.values)).toEqual(alone);
      expect(run.trades, JSON.stringify(run.values)).toEqual(TradeColumns.of(alone));
    }
    void seed;
  });
});

describe('the bias checks', () => {
  const { ir, decider } = ruleOf(ES_CROSS);
  const bars = ES;
  const fill = fillOf(ir, DEFAULT_COSTS.ES);
  const series = seriesOf(ir, bars);
  const start = firstAtOrAfter(bars.t, FROM);
  const { trades } = new Machine(decider, series, fill).run(start, bars.length);

  it('finds the forged decider clean of look-ahead: every decision and series value before each cut unchanged', () => {
    const la = lookAheadOf({ ir, decider, bars, series, marks: [], fill, start, end: bars.length, trades });
    expect(la.cuts).toBeGreaterThanOrEqual(4);
    expect(la.decisions).toBeGreaterThan(trades.length);
    expect(la).toMatchObject({ changed: 0, series_changed: 0, first: null });
  });

  it('catches a decider that reads the next bar', () => {
    // The same rule, but it goes long whenever the next close is higher: a peek no forged code makes.
    const peeking: Decider = {
      ...decider,
      decide(i, st, s) {
        if (st.phase === PHASE.FLAT && s.c[i + 1]! > s.c[i]!) decider.arm(i, st, 1);
        else decider.decide(i, st, s);
      },
      scan(from, end, st, s) {
        for (let i = from; i < end; i++) {
          this.decide(i, st, s);
          if (st.phase !== PHASE.FLAT) return i;
        }
        return -1;
      },
    };
    const own = new Machine(peeking, series, fill).run(start, bars.length).trades;
    const la = lookAheadOf({ ir, decider: peeking, bars, series, marks: [], fill, start, end: bars.length, trades: own });
    expect(la.changed).toBeGreaterThan(0);
    expect(la.first).not.toBeNull();
  });

  it('shows when a longer warm-up changes trades, and reports none for a warm-up long enough', () => {
    const longBars = ES;
    const first = firstAtOrAfter(ES.t, FROM - 64 * 60);
    const std = windowOf(ES, first, ES.length);
    const s = seriesOf(ir, std);
    const st = firstAtOrAfter(std.t, FROM);
    const t = new Machine(decider, s, fill).run(st, std.length).trades;
    const runs = warmUpsOf({ ir, decider, bars: std, series: s, marks: [], fill, start: st, end: std.length, trades: t, longBars, first, from: FROM });
    expect(runs.map((r) => r.factor)).toEqual([2, 4]);
    expect(runs[1]!.warm_up_bars).toBeGreaterThan(runs[0]!.warm_up_bars);
    // A warm-up cut to one bar: the averages start on the window's first bar, and a longer one changes the trades.
    const short = { ...ir, warm_up_bars: 1 };
    const f1 = firstAtOrAfter(ES.t, FROM - 60);
    const b1 = windowOf(ES, f1, ES.length);
    const s1 = seriesOf(short, b1);
    const st1 = firstAtOrAfter(b1.t, FROM);
    const t1 = new Machine(decider, s1, fill).run(st1, b1.length).trades;
    const cold = warmUpsOf({ ir: { ...short, warm_up_bars: 64 }, decider, bars: b1, series: s1, marks: [], fill, start: st1, end: b1.length, trades: t1, longBars, first: f1, from: FROM });
    expect(cold.some((r) => r.trades_changed > 0)).toBe(true);
  });
});

describe('the costs', () => {
  it('states each round trip\'s fees and slippage and the cost at which the total R is zero', () => {
    // ES: 0.04 points a side and one tick (0.25) of slippage; a target pays no exit slippage.
    const trades = [
      { dir: 1, entry: 100, stop: 98, exit: 104, r: (4 - 0.08) / 2, why: 3 },
      { dir: -1, entry: 100, stop: 101, exit: 101.25, r: (-1.25 - 0.08) / 1, why: 0 },
    ];
    const c = costsOf(trades, 'ES', DEFAULT_COSTS.ES, 0.25);
    // Paid: 0.08 + 0.25 (target) and 0.08 + 0.5; in R 0.33 / 2 and 0.58 / 1.
    expect(c.per_trade).toEqual({ price: 0.455, dollars: 22.75, r: 0.3725 });
    const gross = (trades[0]!.r + 0.33 / 2 + trades[1]!.r + 0.58) / 2;
    expect(c.expectancy_r!.before_costs).toBeCloseTo(gross, 4);
    // Before costs the trades made (4 + 0.25) / 2 and (-1.25 + 0.5) / 1: the break-even cost X has
    // (2.125 - X / 2) + (-0.75 - X / 1) = 0, X = 1.375 / 1.5 of a point.
    expect(c.break_even!.price).toBeCloseTo(1.375 / 1.5, 4);
    expect(c.break_even!.dollars).toBeCloseTo(50 * (1.375 / 1.5), 2);
    expect(c.break_even!.ticks).toBeCloseTo(4 * (1.375 / 1.5), 3);
    expect(c.break_even!.times_current).toBeCloseTo(1.375 / 1.5 / 0.455, 3);
    expect(costsOf([{ ...trades[1]!, r: -3 }], 'ES', DEFAULT_COSTS.ES, 0.25).break_even).toBeNull();
    expect(costsOf([], 'ES', DEFAULT_COSTS.ES, 0.25)).toMatchObject({ per_trade: null, expectancy_r: null, break_even: null });
  });
});

describe('the verdict of a rehearsal', () => {
  const { ir, seed, decider } = ruleOf(ES_CROSS);
  const ask = { seed, from: FROM, verdict: { script: ES_CROSS, version: DECIDER_VERSION, trials: { rules: 13, sharpes: [0.02, -0.05, 0.11] } } };

  it('is typed, names its trials and its grid, and says it in one sentence in the summary', () => {
    const r = rehearse(ir, decider, ES, ask);
    const v = VerdictSchema.parse(r.verdict);
    expect(v.deflated_sharpe.trials).toMatchObject({ n: 14, market: 'ES', timeframe: '1m', others_rehearsed: 3, variance_from: 'record' });
    expect(v.neighbourhood.rules).toBe(51);
    expect(v.neighbourhood.results[0]!.total_r).toBe(r.stats.total_r);
    expect(v.neighbourhood.pbo).toMatchObject({ splits: 16, combinations: 12870, periods: 128 });
    expect(v.search).toMatchObject({ rules: 51, periods: 128, draws: 1000 });
    expect(v.monte_carlo!.order.final_r).toBe(r.stats.total_r);
    expect(v.words).toContain(`after your 14 trials on ES 1m`);
    expect(r.summary).toContain(v.words);
    expect(v.words).not.toMatch(/\bwill\b|\bshould\b|\bbuy\b|\bsell\b/i);
    // The rehearsal itself is the one without a verdict: the same trades, the same null.
    const plain = rehearse(ir, decider, ES, { seed, from: FROM });
    expect(r.trades).toEqual(plain.trades);
    // Its histogram's range also holds the neighbours' totals, so only the bins' edges differ.
    const { histogram: weighed, ...weighedNull } = r.null;
    const { histogram: alone, ...plainNull } = plain.null;
    expect(weighedNull).toEqual(plainNull);
    const runs = (h: typeof alone) => h!.counts.reduce((a, b) => a + b, 0);
    expect(runs(weighed)).toBe(runs(alone));
  });

  it('gives the same bytes for the same inputs, and deflates against zero for a first trial', () => {
    expect(JSON.stringify(rehearse(ir, decider, ES, ask))).toBe(JSON.stringify(rehearse(ir, decider, ES, ask)));
    const first = rehearse(ir, decider, ES, { ...ask, verdict: { ...ask.verdict, trials: { rules: 0, sharpes: [] } } }).verdict!;
    expect(first.deflated_sharpe).toMatchObject({ trials: { n: 1, variance: null, variance_from: null }, expected_max_sharpe: 0 });
    expect(first.deflated_sharpe.dsr).toBe(first.deflated_sharpe.probabilistic_sharpe);
  });
});
