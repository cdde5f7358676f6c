import { performance } from 'node:perf_hooks';
import { compileDecider, DECIDER_VERSION, irOf, seedHash } from '../engine/decider/index.js';
import { rehearse } from '../engine/stepper/index.js';
import { LONGEST_WARM_UP } from '../engine/verdict/index.js';
import { EMA_CROSS } from '../test/fixtures/scripts.js';
import type { BenchRow } from './indicators.js';
import { isDisturbed, loadPerCore } from './machine.js';
import { btcMonth, MONTH_BARS, MONTH_LABEL } from './month.js';
import { spreadOf } from './spread.js';

// The whole verdict of a rehearsal (engine/verdict) over a month of 1m bars: the rule's 1,000-run random null, its
// neighbourhood of 51 rules (each stepped, each with its random-entry mean), PBO over 12,870 splits, the SPA
// bootstrap of 1,000 draws, 1,000 Monte Carlo paths, 8 look-ahead cuts and 2 longer warm-ups. The baseline, in the
// same process and the same rounds, is the same rehearsal without its verdict. Timed first thing in a fresh
// process, nothing warmed: a deck's first verdict is the one a trader waits for. One thread: the work is pure
// functions over typed columns, ready to be split across a pool that does not exist yet.

const ROUNDS = 7;

export async function benchVerdict(): Promise<BenchRow[]> {
  const ir = irOf(EMA_CROSS);
  const bars = btcMonth(LONGEST_WARM_UP * ir.warm_up_bars);
  const from = bars.t[LONGEST_WARM_UP * ir.warm_up_bars]!;
  const seed = seedHash(ir, DECIDER_VERSION);
  const decider = compileDecider(ir, seed, DECIDER_VERSION);
  const trials = { rules: 13, sharpes: [0.02, -0.03, 0.05] };
  const load = loadPerCore();
  const withVerdict: number[] = [];
  const without: number[] = [];
  let shown = '';
  for (let round = 0; round < ROUNDS; round++) {
    let t = performance.now();
    const r = rehearse(ir, decider, bars, { seed, from, verdict: { script: EMA_CROSS, version: DECIDER_VERSION, trials } });
    withVerdict.push(performance.now() - t);
    t = performance.now();
    rehearse(ir, decider, bars, { seed, from });
    without.push(performance.now() - t);
    if (r.window.bars !== MONTH_BARS) throw new Error(`the window holds ${r.window.bars} bars, not ${MONTH_BARS}`);
    shown = `${r.stats.n} trades, ${r.verdict!.neighbourhood.rules} rules in the neighbourhood`;
  }
  const v = spreadOf(withVerdict);
  const b = spreadOf(without);
  const ratios = spreadOf(withVerdict.map((ms, k) => ms / without[k]!));
  const end = loadPerCore();
  return [
    {
      name:
        `verdict: a rehearsal with its whole verdict over ${MONTH_BARS.toLocaleString('en-US')} bars, ${MONTH_LABEL}, EMA(9/21) cross, 2 ATR stop, 2R target (${shown}; 1,000 null runs, ` +
        `1,000 Monte Carlo paths, 1,000 SPA draws, 8 look-ahead cuts, 2 longer warm-ups), one thread; baseline: the same rehearsal without its verdict ` +
        `(ratio = verdict time / baseline time; median of ${ROUNDS} rounds in a fresh process, the first included; verdict min ${v.min.toFixed(0)}, max ${v.max.toFixed(0)} ms; ` +
        `ratio min ${ratios.min.toFixed(1)}, max ${ratios.max.toFixed(1)}; load ${load.toFixed(2)} then ${end.toFixed(2)} per core${isDisturbed(Math.max(load, end)) ? ', disturbed' : ''})`,
      value: v.median,
      unit: 'ms',
      baseline: b.median,
      ratio: ratios.median,
      goal: '< 1500 ms',
      met: v.median < 1500,
    },
  ];
}
