import { PHASE, type Decider, type DeciderSeries } from '../decider/contract.js';
import type { DeciderIR } from '../decider/ir.js';
import type { Machine, TradeRecord } from './machine.js';
import { Prng } from './prng.js';
import { nearestRank, round4 } from './stats.js';

const { IN_LONG, IN_SHORT, EXITING } = PHASE;

/**
 * The random null: what random entries would have made under the same stop and exit rules.
 *
 * Each of N runs pairs every trade of the rule (its side and its holding time in bars) with an entry armed at a
 * bar drawn uniformly from the bars where the rule could have armed that side: the session gate open, and a fill
 * at the next open that leaves the stop beyond the fill. So a run matches the rule's trade count, its side mix and
 * its holding-time distribution exactly. The random trade then runs under the rule's own stop, breakeven, target,
 * trail, time, session and exit-rule logic (the same decider, the same fills), and if it is still open at the
 * close of as many bars as the rule's trade held, it closes there (slippage against). Random trades may overlap:
 * each stands alone. A run draws its long trades first, then its short ones.
 *
 * k counts the runs whose total R is at least the rule's; p = (k + 1) / (N + 1), the chance of a null run doing
 * as well, counting the rule itself as one draw. The percentile is the share of runs with a total below the
 * rule's, in percent. Runs are seeded from the seed given, so the same seed and window give the same null.
 */

export interface NullReport {
  runs: number;
  seed: string;
  matched: { trades: number; long: number; short: number; holding_bars: { min: number; median: number; max: number } | null };
  /** Bars where each side could have been armed. */
  eligible: { long: number; short: number };
  rule_total_r: number;
  /** Total R of the null runs: mean and the 5th, 50th and 95th percentiles (nearest rank). */
  total_r: { mean: number; p05: number; p50: number; p95: number } | null;
  k: number;
  percentile: number | null;
  p: number | null;
}

/**
 * One side's random entries: the bars it may arm at, and each one's natural trade, run when first drawn. Eager (the
 * random null's), it lists every bar the side may arm at first; lazy, it checks only the bars it draws, as it draws
 * them (a few thousand draws over a long window need not check every bar), and lists them all only when its draws
 * keep missing.
 */
export class NullSide {
  /**
   * Per bar i, four numbers side by side (one cache line for a random draw): at 4i the bars the natural trade held
   * (exit bar - fill bar + 1; 0 not yet run; cap + 1 still open after `cap` bars), then its R, its entry fill and
   * its risk.
   */
  private readonly data: Float64Array;
  /** Lazy: per bar, 0 not yet checked, 1 the side may arm there, -1 it may not. */
  private readonly checked: Int8Array | null;
  private readonly first: number;
  eligible: Int32Array;

  constructor(
    readonly dir: number,
    private readonly m: Machine,
    private readonly decider: Decider,
    s: DeciderSeries,
    private readonly gate: Float64Array | null,
    start: number,
    private readonly end: number,
    private readonly cap: number,
    lazy = false,
  ) {
    this.data = new Float64Array(4 * s.t.length);
    this.first = Math.max(start, 1);
    this.checked = lazy ? new Int8Array(s.t.length) : null;
    this.eligible = lazy ? new Int32Array(0) : this.scan();
  }

  /** Whether the side may arm at bar i (the gate open, and a fill at the next open that leaves the stop beyond it). */
  private admits(i: number): boolean {
    if (this.gate && this.gate[i] !== 1) return false;
    const st = this.m.st;
    this.decider.arm(i, st, this.dir);
    if (!this.m.enter(i + 1)) return false;
    this.data[4 * i + 2] = st.entry;
    this.data[4 * i + 3] = st.risk;
    return true;
  }

  private scan(): Int32Array {
    const eligible = new Int32Array(Math.max(0, this.end - this.first));
    let count = 0;
    for (let i = this.first; i + 1 < this.end; i++) if (this.admits(i)) eligible[count++] = i;
    return eligible.subarray(0, count);
  }

  /** A bar drawn uniformly from those the side may arm at; -1 when there is none. */
  draw(rng: Prng): number {
    const checked = this.checked;
    if (checked && this.eligible.length === 0) {
      const span = this.end - 1 - this.first;
      for (let tries = 0; tries < 64 && span > 0; tries++) {
        const i = this.first + rng.below(span);
        if (checked[i] === 0) checked[i] = this.admits(i) ? 1 : -1;
        if (checked[i] === 1) return i;
      }
      this.eligible = this.scan();
    }
    return this.eligible.length ? this.eligible[rng.below(this.eligible.length)]! : -1;
  }

  /** Runs the trade armed at bar i to its natural end, or for `cap` bars. */
  private natural(i: number): void {
    const { m, cap, end, data } = this;
    const st = m.st;
    this.decider.arm(i, st, this.dir);
    m.enter(i + 1);
    const f = i + 1;
    const last = Math.min(end, f + cap);
    const k = m.step(f, last);
    if (k >= 0) {
      data[4 * i] = k - f + 1;
      data[4 * i + 1] = m.exitR;
      return;
    }
    if (last === end && (st.phase === IN_LONG || st.phase === IN_SHORT || st.phase === EXITING)) {
      m.endAt(end - 1);
      data[4 * i] = end - f;
      data[4 * i + 1] = m.exitR;
      return;
    }
    data[4 * i] = cap + 1;
  }

  /**
   * The R of the random trade armed at bar i and held at most h bars: its natural end when that comes within h bars,
   * else the close of its h-th bar, slippage against.
   */
  heldR(i: number, h: number, close: Float64Array, slip: number): number {
    const { data, dir, m } = this;
    const at = 4 * i;
    if (data[at] === 0) this.natural(i);
    return data[at]! <= h ? data[at + 1]! : m.rOf(dir, data[at + 2]!, data[at + 3]!, close[i + h]! - dir * slip);
  }

  /** Total R of one run's trades on this side: one random entry per holding time in `caps`. */
  total(caps: Int32Array, rng: Prng, close: Float64Array, slip: number): number {
    const { eligible } = this;
    const choices = eligible.length;
    let total = 0;
    for (let j = 0; j < caps.length; j++) total += this.heldR(eligible[rng.below(choices)]!, caps[j]!, close, slip);
    return total;
  }
}

export interface NullInput {
  machine: Machine;
  decider: Decider;
  series: DeciderSeries;
  ir: DeciderIR;
  trades: readonly TradeRecord[];
  start: number;
  end: number;
  slippage: number;
  runs: number;
  seed: string;
  /** Handed each run's total R, in run order, when there were runs (a picture draws their distribution). */
  totals?: (totals: Float64Array) => void;
}

export function randomNull(input: NullInput): NullReport {
  const { machine, decider, series, ir, trades, start, end, runs, seed, slippage } = input;
  const holds = trades.map((t) => t.exitBar - t.fill + 1);
  const ruleTotal = trades.reduce((sum, t) => sum + t.r, 0);
  const sortedHolds = [...holds].sort((a, b) => a - b);
  const capsOf = (dir: number) => Int32Array.from(holds.filter((_, j) => trades[j]!.dir === dir));
  const longCaps = capsOf(1);
  const shortCaps = capsOf(-1);
  const report: NullReport = {
    runs: 0,
    seed,
    matched: {
      trades: trades.length,
      long: longCaps.length,
      short: shortCaps.length,
      holding_bars: holds.length
        ? { min: sortedHolds[0]!, median: sortedHolds[Math.floor((holds.length - 1) / 2)]!, max: sortedHolds.at(-1)! }
        : null,
    },
    eligible: { long: 0, short: 0 },
    rule_total_r: round4(ruleTotal),
    total_r: null,
    k: 0,
    percentile: null,
    p: null,
  };
  if (trades.length === 0 || runs < 1) return report;

  const cap = sortedHolds.at(-1)!;
  const gate = ir.session.kind === 'windows' ? (series[ir.session.gate] as Float64Array) : null;
  const side = (dir: number) => new NullSide(dir, machine, decider, series, gate, start, end, cap);
  const long = longCaps.length ? side(1) : null;
  const short = shortCaps.length ? side(-1) : null;
  report.eligible = { long: long?.eligible.length ?? 0, short: short?.eligible.length ?? 0 };

  const rng = new Prng(seed);
  const totals = new Float64Array(runs);
  let k = 0;
  for (let run = 0; run < runs; run++) {
    const total = (long ? long.total(longCaps, rng, series.c, slippage) : 0) + (short ? short.total(shortCaps, rng, series.c, slippage) : 0);
    totals[run] = total;
    if (total >= ruleTotal) k++;
  }
  input.totals?.(totals);
  const sorted = totals.slice().sort();
  const mean = totals.reduce((a, b) => a + b, 0) / runs;
  return {
    ...report,
    runs,
    total_r: { mean: round4(mean), p05: round4(nearestRank(sorted, 0.05)), p50: round4(nearestRank(sorted, 0.5)), p95: round4(nearestRank(sorted, 0.95)) },
    k,
    percentile: Math.round((1000 * (runs - k)) / runs) / 10,
    p: round4((k + 1) / (runs + 1)),
  };
}
