import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { Bars } from '../engine/bars.js';
import { compileDecider, DECIDER_VERSION, irOf, seedHash, seriesOf, type Script } from '../engine/decider/index.js';
import { atr, ema } from '../engine/indicators/index.js';
import { fillOf, Machine, rehearse } from '../engine/stepper/index.js';
import { EMA_CROSS, TRAILED_EMA_CROSS } from '../test/fixtures/scripts.js';
import { benchMonth } from './bars.js';
import type { BenchRow } from './indicators.js';
import { isDisturbed, loadPerCore } from './machine.js';
import { median, spreadOf } from './spread.js';

// The stepper over the bench's month of BTC 1m bars (44,640: bench/bars.ts). (a) The forge's compiled decider run by the stepper
// against a hand-written TypeScript loop of the same rule (EMA(9)/EMA(21) cross, both sides, 2 ATR(14) stop, 2R
// target, the same fills and costs), both computing their indicators and stepping every bar; the two must agree
// on every trade before either is timed; the times are medians of RUNS runs after WARM untimed ones, the two
// sides taking turns. Once in a fresh process, and once (no goal) after four other rules were rehearsed and stepped,
// as in a running deck. (b) A whole rehearsal with a 1,000-run random null, timed first thing in a fresh process with
// nothing warmed: the median of REHEARSALS, with their spread. bench/engine.ts runs each in a process of its own;
// `npx tsx bench/stepper.ts` runs the three so.

/** Timed runs per side: a run is half a millisecond, so a few hundred keep the median clear of a few slow ones. */
const RUNS = 301;
/**
 * Untimed runs first, enough for the optimizing compiler to have finished with both sides: it compiles on a thread of
 * its own, which a loaded machine starts late, and 20 warm runs left some timed runs on code not yet optimized.
 */
const WARM = 200;
const REHEARSALS = 10;

interface Outcome {
  trades: number;
  totalR: number;
}

/** The rule written by hand: the fills of engine/stepper/machine.ts, specialised to this one rule. */
function handLoop(bars: Bars, slip: number, feeRate: number): Outcome {
  const { o, h, l, c } = bars;
  const fast = ema(c, 9);
  const slow = ema(c, 21);
  const range = atr(h, l, c, 14);
  const q = (x: number) => Math.round(x * 100) / 100;
  const rOf = (d: number, entry: number, risk: number, price: number) => {
    const exit = q(price);
    return (d * (exit - entry) - (entry + exit) * feeRate) / risk;
  };
  let trades = 0;
  let totalR = 0;
  let armed = 0;
  let signal = -1;
  let dir = 0;
  let entry = 0;
  let stop = 0;
  let target = 0;
  let risk = 0;
  for (let i = 1; i < bars.length; i++) {
    if (armed !== 0) {
      const d = armed;
      armed = 0;
      const price = q(o[i]! + d * slip);
      const s = q(price - d * 2 * range[signal]!);
      if (d * (price - s) > 0) {
        dir = d;
        entry = price;
        stop = s;
        risk = d * (price - s);
        target = q(price + d * 2 * risk);
      }
    }
    if (dir !== 0) {
      const d = dir;
      let r = NaN;
      if (d * (o[i]! - stop) <= 0) r = rOf(d, entry, risk, o[i]! - d * slip);
      else if (d * (o[i]! - target) >= 0) r = rOf(d, entry, risk, o[i]!);
      else if (d > 0 ? l[i]! <= stop : h[i]! >= stop) r = rOf(d, entry, risk, stop - d * slip);
      else if (d > 0 ? h[i]! >= target : l[i]! <= target) r = rOf(d, entry, risk, target);
      if (r !== r) continue;
      trades++;
      totalR += r;
      dir = 0;
    }
    const up = fast[i]! > slow[i]! && fast[i - 1]! <= slow[i - 1]!;
    const down = fast[i]! < slow[i]! && fast[i - 1]! >= slow[i - 1]!;
    if (up !== down) {
      armed = up ? 1 : -1;
      signal = i;
    }
  }
  if (dir !== 0) {
    trades++;
    totalR += rOf(dir, entry, risk, c[bars.length - 1]! - dir * slip);
  }
  return { trades, totalR };
}

/** Milliseconds of each run of each side; the sides take turns so the machine's other work weighs on both alike. */
function timed(sides: (() => unknown)[], runs: number, warm: number): number[][] {
  const times: number[][] = sides.map(() => []);
  for (let run = 0; run < warm + runs; run++) {
    sides.forEach((side, k) => {
      const start = performance.now();
      side();
      if (run >= warm) times[k]!.push(performance.now() - start);
    });
  }
  return times;
}

/**
 * Rules a running deck would have rehearsed and stepped before this one, each with its own decider: other averages,
 * stops and targets, and one that manages its trades.
 */
const OTHER_RULES: Script[] = [
  { ...EMA_CROSS, side: 'long', entry: { triggers: [{ side: 'long', when: { op: 'crosses_above', left: { kind: 'ema', n: 5 }, right: { kind: 'ema', n: 30 } } }] } },
  { ...EMA_CROSS, stop: { kind: 'distance', distance: { unit: 'atr', n: 3, period: 14 } } },
  { ...EMA_CROSS, exit: { target: { kind: 'distance', distance: { unit: 'r', n: 3 } } } },
  TRAILED_EMA_CROSS,
];

/** Rehearses each of OTHER_RULES and steps it WARM times, so the stepper's code has met several deciders. */
function stepOtherRules(bars: Bars): void {
  for (const script of OTHER_RULES) {
    const ir = irOf(script);
    const seed = seedHash(ir, DECIDER_VERSION);
    const decider = compileDecider(ir, seed, DECIDER_VERSION);
    rehearse(ir, decider, bars, { seed });
    const series = seriesOf(ir, bars);
    const fills = fillOf(ir);
    for (let run = 0; run < WARM; run++) new Machine(decider, series, fills).run(0, bars.length);
  }
}

/** The compiled decider against the hand loop, side by side; `where` says what the process had done before. */
function comparison(bars: Bars, where: string, goal: boolean): BenchRow {
  const ir = irOf(EMA_CROSS);
  const seed = seedHash(ir, DECIDER_VERSION);
  const decider = compileDecider(ir, seed, DECIDER_VERSION);
  const fills = fillOf(ir);
  const feeRate = fills.fee.per_side / 10_000;
  const compiled = (): Outcome => {
    const run = new Machine(decider, seriesOf(ir, bars), fills).run(0, bars.length);
    return { trades: run.trades.length, totalR: run.trades.reduce((sum, t) => sum + t.r, 0) };
  };
  const hand = handLoop(bars, fills.slippage, feeRate);
  const ours = compiled();
  if (hand.trades !== ours.trades || Math.abs(hand.totalR - ours.totalR) > 1e-9) {
    throw new Error(`the hand loop and the compiled decider disagree: ${JSON.stringify(hand)} != ${JSON.stringify(ours)}`);
  }
  const load = loadPerCore();
  const [compiledRuns, handRuns] = timed([compiled, () => handLoop(bars, fills.slippage, feeRate)], RUNS, WARM) as [number[], number[]];
  // Each run's ratio is taken against the hand loop's run beside it.
  const ratios = spreadOf(compiledRuns.map((ms, k) => handRuns[k]! / ms));
  const n = bars.length.toLocaleString('en-US');
  return {
    name: `stepper: compiled decider vs a hand-written loop ${where}, EMA(9/21) cross, 2 ATR stop, 2R target, ${n} BTC 1m bars, ${ours.trades} trades (ratio = hand time / compiled time, median of ${RUNS} runs side by side after ${WARM} untimed; each run's ratio min ${ratios.min.toFixed(2)}, max ${ratios.max.toFixed(2)}; ${loadNote(load)})`,
    value: median(compiledRuns),
    unit: 'ms',
    baseline: median(handRuns),
    ratio: ratios.median,
    ...(goal ? { goal: ">= 1x the hand loop's speed", met: ratios.median >= 1 } : {}),
  };
}

/** The comparison in a fresh process: the two sides are all it has run. */
export async function benchStepper(): Promise<BenchRow[]> {
  return [comparison(benchMonth().bars, 'in a fresh process', true)];
}

/**
 * The same comparison in a process that has first rehearsed and stepped four other rules, as a running deck has: it
 * shows the stepper's code holding its speed when it has met many deciders (no goal of its own).
 */
export async function benchStepperBusy(): Promise<BenchRow[]> {
  const { bars } = benchMonth();
  stepOtherRules(bars);
  return [comparison(bars, 'after four other rules were rehearsed and stepped in the process', false)];
}

/** A whole rehearsal, first thing in a fresh process: REHEARSALS of them, nothing warmed before. */
export async function benchRehearsal(): Promise<BenchRow[]> {
  const { bars } = benchMonth();
  const ir = irOf(EMA_CROSS);
  const seed = seedHash(ir, DECIDER_VERSION);
  const decider = compileDecider(ir, seed, DECIDER_VERSION);
  const load = loadPerCore();
  const runs = timed([() => rehearse(ir, decider, bars, { seed })], REHEARSALS, 0)[0]!;
  const s = spreadOf(runs);
  return [
    {
      name: `stepper: rehearsal with a 1,000-run random null over ${bars.length.toLocaleString('en-US')} BTC 1m bars (the same rule), median of ${REHEARSALS} in a fresh process, nothing warmed (min ${s.min.toFixed(1)}, max ${s.max.toFixed(1)} ms; ${loadNote(load)})`,
      value: s.median,
      unit: 'ms',
      goal: '< 100 ms',
      met: s.median < 100,
    },
  ];
}

const loadNote = (perCore: number) => `load ${perCore.toFixed(2)} per core${isDisturbed(perCore) ? ', disturbed' : ''}`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { engineRows } = await import('./engine.js');
  // Each in a fresh process of its own, as `npm run bench` runs them: what one leaves compiled would weigh on the next.
  for (const name of ['rehearsal', 'stepper', 'stepper-busy'] as const) {
    for (const r of await engineRows(name)) {
      const base = r.baseline === undefined ? '' : `, hand loop ${r.baseline.toFixed(2)} ${r.unit}, ${r.ratio!.toFixed(2)}x`;
      process.stdout.write(`${r.name}: ${r.value.toFixed(2)} ${r.unit}${base}${r.goal ? `, goal ${r.goal}: ${r.met ? 'met' : 'NOT met'}` : ''}\n`);
    }
  }
}
