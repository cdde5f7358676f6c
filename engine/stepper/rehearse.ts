import { firstAtOrAfter, windowOf, type Bars } from '../bars.js';
import { warmStart } from '../calendar.js';
import { EXIT_WHY, type Decider } from '../decider/contract.js';
import type { DeciderIR } from '../decider/ir.js';
import { seriesOf, type MarkInput } from '../decider/series.js';
import { DEFAULT_COSTS, type Costs } from './costs.js';
import { REHEARSAL_VERSION, type Rehearsal, type Trade } from './envelope.js';
import { foldsOf, MAX_FOLDS } from './folds.js';
import { fillOf, Machine, type TradeRecord } from './machine.js';
import { randomNull } from './null.js';
import { nullBins } from './null-bins.js';
import { readinessOf } from './readiness.js';
import { round4, statsOf } from './stats.js';
import { summaryOf } from './summary.js';
import { neighboursOf, verdictOf, type TrialRecord } from '../verdict/index.js';
import type { Script } from '../decider/script.js';

export interface RehearseOptions {
  /** Seeds the random null: the forge's seed hash, so the same seed and window give the same envelope. */
  seed: string;
  /** The first bar that may trade, unix seconds; the bars before it only warm the series. Default: the first bar. */
  from?: number;
  /** Random-null runs; default 1,000. */
  nullRuns?: number;
  /** Walk-forward folds (2 to 20), when asked. */
  folds?: number;
  /** The trader's marks on this market, for rules that read them. */
  marks?: readonly MarkInput[];
  /** Default: the market's (DEFAULT_COSTS). */
  costs?: Costs;
  /** Handed the random null's run totals, in R, when it ran (a rehearsal's plate draws their distribution). */
  nullTotals?: (totals: Float64Array) => void;
  /**
   * Weigh the result for luck and overfitting (engine/verdict): the rule's script (its neighbourhood is made from its
   * numbers), the forge version, and the principal's record of other rules on this market and timeframe. The bars
   * may then reach further back than the rule's warm-up (up to LONGEST_WARM_UP times it, for the warm-up check): the
   * rehearsal itself starts its series at the warm-up the IR asks for before `from`, as always.
   */
  verdict?: { script: Script; version: string; trials: TrialRecord };
  /** Told each step as it starts, for a caller that reports how the work goes; the envelope is the same without it. */
  phase?: (p: RehearsalPhase) => void;
}

/** A rehearsal's steps, in the order they run: the rule over the bars, its random null, the verdict, the folds. */
export type RehearsalPhase =
  | { phase: 'stepping'; bars: number }
  | { phase: 'null'; runs: number }
  | { phase: 'verdict' }
  | { phase: 'folds'; folds: number };

export const DEFAULT_NULL_RUNS = 1000;

const tradeOf = (x: TradeRecord, t: Float64Array): Trade => ({
  side: x.dir > 0 ? 'long' : 'short',
  entry_t: t[x.fill]!,
  entry: x.entry,
  stop: x.stop,
  target: Number.isNaN(x.target) ? null : x.target,
  exit_t: x.exitT,
  exit: x.exit,
  r: round4(x.r),
  why: EXIT_WHY[x.why]!,
});

/** Rehearses a decider over bars: the rule's trades, their R, the random null, folds when asked, in words. */
export function rehearse(ir: DeciderIR, decider: Decider, given: Bars, options: RehearseOptions): Rehearsal {
  const costs = options.costs ?? DEFAULT_COSTS[ir.market];
  const fill = fillOf(ir, costs);
  const { slippage } = fill;
  // With a verdict asked, bars before the standard warm-up serve only its warm-up check.
  const first =
    options.verdict && options.from !== undefined ? firstAtOrAfter(given.t, warmStart(ir.market, options.from, ir.warm_up_bars * ir.tf_seconds, ir.tf_seconds)) : 0;
  const bars = first > 0 ? windowOf(given, first, given.length) : given;
  const series = seriesOf(ir, bars, options.marks);
  const machine = new Machine(decider, series, fill);
  const start = options.from === undefined ? 0 : firstAtOrAfter(bars.t, options.from);
  const end = bars.length;
  if (end - start < 2) throw new RangeError('a rehearsal needs at least two bars in its window');
  const phase = options.phase ?? (() => {});
  phase({ phase: 'stepping', bars: end - start });
  const { trades, skipped } = machine.run(start, end);
  const stats = statsOf(trades);
  let totals: Float64Array = new Float64Array(0);
  const runs = options.nullRuns ?? DEFAULT_NULL_RUNS;
  phase({ phase: 'null', runs });
  const nullReport = randomNull({
    machine,
    decider,
    series,
    ir,
    trades,
    start,
    end,
    slippage,
    runs,
    seed: options.seed,
    totals: (t) => {
      totals = t;
      options.nullTotals?.(t);
    },
  });
  const k = options.folds;
  if (k !== undefined && !(Number.isInteger(k) && k >= 2 && k <= MAX_FOLDS)) throw new RangeError(`folds: 2 to ${MAX_FOLDS}`);
  const window = { from: bars.t[start]!, to: bars.t[end - 1]! + ir.tf_seconds, bars: end - start, warm_up_bars: start, ...readinessOf(ir, bars, series, start, end) };
  const ask = options.verdict;
  if (ask) phase({ phase: 'verdict' });
  const verdict = ask
    ? verdictOf({
        ...ask,
        ir,
        decider,
        bars,
        series,
        longBars: given,
        first,
        marks: options.marks ?? [],
        costs,
        fill,
        start,
        end,
        trades,
        nullTotals: totals,
        seed: options.seed,
      })
    : undefined;
  if (k !== undefined) phase({ phase: 'folds', folds: k });
  const folds = k === undefined ? null : foldsOf(trades, bars.t, ir.tf_seconds, start, end, k);
  return {
    version: REHEARSAL_VERSION,
    market: ir.market,
    timeframe: ir.timeframe,
    window,
    costs: { ...costs, slippage },
    trades: trades.map((x) => tradeOf(x, bars.t)),
    skipped,
    stats,
    null: { ...nullReport, histogram: nullBins(totals, [nullReport.rule_total_r, ...neighboursOf(verdict)]) },
    folds,
    ...(verdict ? { verdict } : {}),
    summary: summaryOf({ ir, window, stats, null: nullReport, verdict: verdict?.words }),
  };
}
