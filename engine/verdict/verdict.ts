import type { Bars } from '../bars.js';
import type { Decider, DeciderSeries } from '../decider/contract.js';
import type { DeciderIR } from '../decider/ir.js';
import type { Script } from '../decider/script.js';
import type { MarkInput } from '../decider/series.js';
import type { Costs } from '../stepper/costs.js';
import type { Fill, TradeRecord } from '../stepper/machine.js';
import type { TradeColumns } from '../stepper/trade-columns.js';
import { Prng } from '../stepper/prng.js';
import { round4 } from '../stepper/stats.js';
import { bandsOf } from './bands.js';
import { lookAheadOf, warmUpsOf } from './bias.js';
import { costsOf } from './costs.js';
import { pboOf } from './cscv.js';
import { deflatedSharpe, momentsOf, probabilisticSharpe, sharpeOf } from './deflated-sharpe.js';
import { monteCarloOf } from './monte-carlo.js';
import { neighbourhoodOf, nullMeansOf } from './neighbourhood.js';
import { spaOf } from './spa.js';
import { VERDICT_VERSION, type Verdict } from './schema.js';
import { wordsOf } from './words.js';

/** The cross-validation's blocks and the periods the window is cut into for it and for the search test. */
export const SPLITS = 16;
export const PERIODS = 128;
export const MC_PATHS = 1000;
export const SKIP_SHARE = 0.1;
export const SPA_DRAWS = 1000;
/** Random entries drawn for each neighbour's random-entry expectation (the rule itself takes its own null's mean). */
export const NULL_MEAN_DRAWS = 4_000;

/** The principal's record on this market and timeframe, this rule left out: how many other rules, and the Sharpe ratios of those rehearsed. */
export interface TrialRecord {
  rules: number;
  sharpes: readonly number[];
}

export interface VerdictInput {
  script: Script;
  version: string;
  ir: DeciderIR;
  decider: Decider;
  /** The bars the rehearsal ran over, from its warm-up on, and its series over them. */
  bars: Bars;
  series: DeciderSeries;
  /** Bars reaching further back (for the warm-up check), `first` of them before `bars` begin; `bars` itself when none. */
  longBars: Bars;
  first: number;
  marks: readonly MarkInput[];
  costs: Costs;
  fill: Fill;
  start: number;
  end: number;
  trades: readonly TradeRecord[];
  /** The random null's run totals; empty when it did not run. */
  nullTotals: Float64Array;
  seed: string;
  trials: TrialRecord;
}

const orNull = (x: number): number | null => (Number.isFinite(x) ? round4(x) : null);

/** Variance with n - 1 over the finite values; NaN with fewer than two. */
function varianceOf(xs: readonly number[]): number {
  const v = xs.filter(Number.isFinite);
  if (v.length < 2) return NaN;
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  return v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1);
}

/** Each rule's R by period of the window (by the bar its trade ended in), less `benchmark` per trade: rules x periods. */
function perPeriod(runs: readonly { trades: TradeColumns }[], benchmark: Float64Array | null, start: number, end: number, periods: number): Float64Array {
  const out = new Float64Array(runs.length * periods);
  const bars = end - start;
  // Loops rather than a callback a run: a closure made at each call is compiled again at each call.
  for (let k = 0; k < runs.length; k++) {
    const { trades } = runs[k]!;
    const less = benchmark ? benchmark[k]! : 0;
    for (let j = 0; j < trades.length; j++) out[k * periods + Math.min(periods - 1, Math.floor(((trades.exitBar[j]! - start) * periods) / bars))]! += trades.r[j]! - (less === less ? less : 0);
  }
  return out;
}

export function verdictOf(x: VerdictInput): Verdict {
  const r = Float64Array.from(x.trades, (t) => t.r);
  const moments = momentsOf(r);
  const sr = sharpeOf(moments);
  const rng = (what: string) => new Prng(`${x.seed}/verdict/${what}`);

  // The neighbourhood, stepped over the same bars; the rule's own series seed the shared ones.
  const known = new Map<string, Float64Array>();
  for (const spec of x.ir.series) known.set(spec.id, x.series[spec.id] as Float64Array);
  const hood = neighbourhoodOf({
    script: x.script,
    version: x.version,
    bars: x.bars,
    marks: x.marks,
    costs: x.costs,
    start: x.start,
    end: x.end,
    rule: { ir: x.ir, decider: x.decider, series: x.series, trades: x.trades as TradeRecord[] },
    known,
  });
  const totals = hood.runs.map((run) => run.trades.rs().reduce((s, r) => s + r, 0));
  const sharpes = hood.runs.map((run) => sharpeOf(momentsOf(run.trades.rs())));
  const positive = totals.filter((t) => t > 0).length;

  // Trials: this rule and the other rules of the record; the variance of their Sharpe ratios from the record, or the neighbourhood's.
  const n = x.trials.rules + 1;
  const recorded = [...x.trials.sharpes, sr];
  let variance = varianceOf(recorded);
  let from: 'record' | 'neighbourhood' | null = Number.isFinite(variance) ? 'record' : null;
  if (!from && n > 1) {
    variance = varianceOf(sharpes);
    from = Number.isFinite(variance) ? 'neighbourhood' : null;
  }
  const dsr = Number.isFinite(sr) && (n === 1 || from) ? deflatedSharpe({ sr, t: moments.n, skewness: moments.skewness, kurtosis: moments.kurtosis, trials: n, variance: n === 1 ? 0 : variance }) : null;

  // Periods for the cross-validation and the search test.
  const bars = x.end - x.start;
  const splits = bars >= PERIODS ? SPLITS : bars >= 32 ? 8 : 0;
  const periods = splits ? Math.min(PERIODS, bars - (bars % splits)) : 0;
  const anyTrades = hood.runs.some((run) => run.trades.length > 0);
  const pbo = splits && hood.runs.length >= 2 && anyTrades ? pboOf(perPeriod(hood.runs, null, x.start, x.end, periods), hood.runs.length, periods, splits) : null;

  // The search test: each rule against its own random entries.
  let search: Verdict['search'] = null;
  if (periods && anyTrades) {
    const means = nullMeansOf(hood.runs, x.costs, x.start, x.end, NULL_MEAN_DRAWS, `${x.seed}/verdict/null-means`);
    if (x.nullTotals.length > 0 && x.trades.length > 0) means[0] = x.nullTotals.reduce((a, b) => a + b, 0) / x.nullTotals.length / x.trades.length;
    const block = Math.max(1, Math.round(Math.cbrt(periods)));
    const spa = spaOf(perPeriod(hood.runs, means, x.start, x.end, periods), hood.runs.length, periods, SPA_DRAWS, block, rng('spa'));
    search = {
      rules: hood.runs.length,
      periods,
      block,
      draws: SPA_DRAWS,
      null_draws: NULL_MEAN_DRAWS,
      rule_null_mean_r: orNull(means[0]!),
      statistic: round4(spa.statistic),
      p: spa.p_consistent,
      p_lower: spa.p_lower,
      p_upper: spa.p_upper,
      reality_check: { statistic: round4(spa.reality_check.statistic), p: spa.reality_check.p },
    };
  }

  const cut = { ir: x.ir, decider: x.decider, bars: x.bars, series: x.series, marks: x.marks, fill: x.fill, start: x.start, end: x.end, trades: x.trades };
  const lookAhead = lookAheadOf(cut);
  const warmUps = warmUpsOf({ ...cut, longBars: x.longBars, first: x.first, from: x.bars.t[x.start]! });

  const verdict: Omit<Verdict, 'label' | 'words'> = {
    version: VERDICT_VERSION,
    deflated_sharpe: {
      sharpe: orNull(sr),
      trades: moments.n,
      skewness: orNull(moments.skewness),
      kurtosis: orNull(moments.kurtosis),
      trials: { n, market: x.ir.market, timeframe: x.ir.timeframe, others_rehearsed: x.trials.sharpes.length, variance: n > 1 ? orNull(variance) : null, variance_from: n > 1 ? from : null },
      probabilistic_sharpe: Number.isFinite(sr) ? orNull(probabilisticSharpe(sr, 0, moments.n, moments.skewness, moments.kurtosis)) : null,
      expected_max_sharpe: dsr ? orNull(dsr.expected_max) : null,
      dsr: dsr ? orNull(dsr.dsr) : null,
    },
    neighbourhood: {
      numbers: hood.numbers,
      rules: hood.runs.length,
      left_out: hood.refused,
      positive,
      share_positive: round4(positive / hood.runs.length),
      total_r: bandsOf(Float64Array.from(totals)),
      results: hood.runs.map((run, k) => ({ values: run.values, trades: run.trades.length, total_r: round4(totals[k]!) })),
      pbo: pbo ? { splits: pbo.splits, combinations: pbo.combinations, periods, pbo: round4(pbo.pbo), oos_loss: round4(pbo.oos_loss), median_logit: round4(pbo.median_logit) } : null,
    },
    search,
    monte_carlo: r.length > 0 ? monteCarloOf(r, MC_PATHS, SKIP_SHARE, rng('monte-carlo')) : null,
    costs: costsOf(x.trades, x.ir.market, x.costs, x.fill.slippage),
    bias: {
      look_ahead: lookAhead,
      warm_up: warmUps.map((w) => ({ ...w, total_r_delta: round4(w.total_r_delta) })),
    },
  };
  if (verdict.monte_carlo) verdict.monte_carlo.order.final_r = round4(verdict.monte_carlo.order.final_r);
  return { ...wordsOf(verdict), ...verdict };
}

/** The total R of each of the rule's neighbours (the rule's own result, first in the neighbourhood, left out); none unweighed. */
export const neighboursOf = (v: Verdict | undefined): number[] => (v ? v.neighbourhood.results.slice(1).map((x) => x.total_r) : []);
