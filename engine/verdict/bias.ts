import { firstAtOrAfter, windowOf, type Bars } from '../bars.js';
import { warmStart } from '../calendar.js';
import { PHASE, type Decider, type DeciderSeries } from '../decider/contract.js';
import type { DeciderIR } from '../decider/ir.js';
import { seriesOf, type MarkInput } from '../decider/series.js';
import { Machine, type Fill, type TradeRecord } from '../stepper/machine.js';

/**
 * Bias checks that re-run the forged decider itself.
 *
 * Look-ahead (as freqtrade's lookahead-analysis does): the bars are cut right after the signal bar of trades spread
 * over the window (and at even points when there are few), every series is computed again over the cut bars alone,
 * and the rule is run again. Every series value before the cut must be the same, and so must every decision: the
 * entry armed on the cut's last bar (its side), each trade filled before the cut (its side, fill bar, entry and
 * initial stop) and each exit before the cut's last bar (its bar, price, R and why). A difference means the code
 * read a bar it could not yet have seen.
 *
 * Recursive indicators (as freqtrade's recursive-analysis does): the rule is run again with its series started two
 * and four times as far back as its warm-up asks (as far as the bars given reach), over the same window; a trade that
 * changes shows a recursive indicator (an EMA, an ATR, an RSI) still carrying its start into the window.
 */

export const LOOK_AHEAD_CUTS = 8;
/** The longer warm-ups tried, as multiples of the one the IR asks for; the bars read before a rehearsal reach the last. */
export const WARM_UP_FACTORS = [2, 4] as const;
export const LONGEST_WARM_UP = WARM_UP_FACTORS.at(-1)!;

export interface LookAhead {
  cuts: number;
  /** Decisions compared: entries and exits before the cuts. */
  decisions: number;
  changed: number;
  series_values: number;
  series_changed: number;
  /** The first difference found: the open time of its bar and what differed; null when none. */
  first: { t: number; what: string } | null;
}

export interface WarmUpRun {
  factor: number;
  /** The warm-up bars the re-run had: the factor's, or as many as the bars given reach. */
  warm_up_bars: number;
  trades_changed: number;
  total_r_delta: number;
}

const sameEntry = (a: TradeRecord, b: TradeRecord, shift = 0): boolean => a.dir === b.dir && a.fill === b.fill + shift && a.entry === b.entry && a.stop === b.stop;
const sameExit = (a: TradeRecord, b: TradeRecord, shift = 0): boolean => a.exitBar === b.exitBar + shift && a.exit === b.exit && a.r === b.r && a.why === b.why;
const same = (x: number, y: number): boolean => x === y || (x !== x && y !== y);

export interface BiasInput {
  ir: DeciderIR;
  decider: Decider;
  bars: Bars;
  /** The rule's series over `bars`. */
  series: DeciderSeries;
  marks: readonly MarkInput[];
  fill: Fill;
  start: number;
  end: number;
  trades: readonly TradeRecord[];
}

/** Where the bars are cut: right after the signal bar of trades spread over the window, then even points, LOOK_AHEAD_CUTS at most. */
function cutsOf(trades: readonly TradeRecord[], start: number, end: number): number[] {
  const cuts = new Set<number>();
  const picked = Math.min(LOOK_AHEAD_CUTS, trades.length);
  for (let j = 0; j < picked; j++) cuts.add(trades[Math.floor(((j + 0.5) * trades.length) / picked)]!.fill);
  for (let j = 1; cuts.size < LOOK_AHEAD_CUTS && j <= LOOK_AHEAD_CUTS; j++) cuts.add(start + Math.floor((j * (end - start)) / (LOOK_AHEAD_CUTS + 1)));
  return [...cuts].filter((c) => c >= start + 2 && c < end).sort((a, b) => a - b);
}

/**
 * The first of bars [0, cut) where two series differ (NaN equal to NaN), -1 when none. A function of its own, called
 * for every series at every cut, so it runs optimised: a loop inside lookAheadOf, which runs once a rehearsal, began
 * each rehearsal in the interpreter, boxing every value it read (16 MB a rehearsal for the collector).
 */
function firstDifference(a: Float64Array, b: Float64Array, cut: number): number {
  for (let i = 0; i < cut; i++) if (!same(a[i]!, b[i]!)) return i;
  return -1;
}

export function lookAheadOf(x: BiasInput): LookAhead {
  const full = x.series;
  const report: LookAhead = { cuts: 0, decisions: 0, changed: 0, series_values: 0, series_changed: 0, first: null };
  const differ = (i: number, what: string) => {
    report.changed++;
    if (!report.first || x.bars.t[i]! < report.first.t) report.first = { t: x.bars.t[i]!, what };
  };
  for (const cut of cutsOf(x.trades, x.start, x.end)) {
    report.cuts++;
    const series = seriesOf(x.ir, windowOf(x.bars, 0, cut), x.marks);
    for (const spec of x.ir.series) {
      const i = firstDifference(full[spec.id] as Float64Array, series[spec.id] as Float64Array, cut);
      report.series_values += i < 0 ? cut : i + 1;
      if (i >= 0) {
        report.series_changed++;
        if (!report.first || x.bars.t[i]! < report.first.t) report.first = { t: x.bars.t[i]!, what: `the ${spec.id} series` };
      }
    }
    const machine = new Machine(x.decider, series, x.fill);
    const { trades } = machine.run(x.start, cut);
    // A trade of the rule filling at the cut was armed on the cut's last bar: that bar must arm it still.
    const armed = x.trades.find((t) => t.fill === cut);
    if (armed) {
      report.decisions++;
      const st = machine.st;
      if (!(st.phase === PHASE.ARMED && st.signal === cut - 1 && st.dir === armed.dir)) differ(cut - 1, 'an entry signal');
    }
    const before = x.trades.filter((t) => t.fill < cut);
    for (let j = 0; j < before.length; j++) {
      const a = before[j]!;
      const b = trades[j];
      report.decisions++;
      if (!b || !sameEntry(a, b)) {
        differ(a.fill, 'an entry');
        continue;
      }
      if (a.exitBar < cut - 1) {
        report.decisions++;
        if (!sameExit(a, b)) differ(a.exitBar, 'an exit');
      }
    }
    if (trades.filter((t) => t.fill < cut).length > before.length) differ(trades[before.length]!.fill, 'an entry');
  }
  return report;
}

/**
 * The rule over the same window with longer warm-ups: `longBars` reach further back than `bars` (which begin at the
 * standard warm-up start, `first` bars into longBars); `from` is the window's start, unix seconds.
 */
export function warmUpsOf(x: BiasInput & { longBars: Bars; first: number; from: number }): WarmUpRun[] {
  const tf = x.ir.tf_seconds;
  const total = x.trades.reduce((s, t) => s + t.r, 0);
  return WARM_UP_FACTORS.map((factor) => {
    const at = Math.min(x.first, firstAtOrAfter(x.longBars.t, warmStart(x.ir.market, x.from, factor * x.ir.warm_up_bars * tf, tf)));
    const shift = x.first - at;
    const bars = windowOf(x.longBars, at, x.longBars.length);
    const { trades } = new Machine(x.decider, seriesOf(x.ir, bars, x.marks), x.fill).run(x.start + shift, x.end + shift);
    let changed = Math.abs(trades.length - x.trades.length);
    for (let j = 0; j < Math.min(trades.length, x.trades.length); j++) {
      if (!sameEntry(trades[j]!, x.trades[j]!, shift) || !sameExit(trades[j]!, x.trades[j]!, shift)) changed++;
    }
    const longTotal = trades.reduce((s, t) => s + t.r, 0);
    return { factor, warm_up_bars: x.start + shift, trades_changed: changed, total_r_delta: longTotal - total };
  });
}
