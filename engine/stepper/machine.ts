import { freshState, PHASE, WHY, type Decider, type DeciderSeries, type DeciderState } from '../decider/contract.js';
import type { DeciderIR } from '../decider/ir.js';
import { DEFAULT_COSTS, slippageOf, type Costs } from './costs.js';
import { TradeColumns } from './trade-columns.js';

const { FLAT, ARMED, IN_LONG, IN_SHORT, EXITING, CLOSING } = PHASE;
const TARGET = WHY.target;
const END_OF_DATA = WHY.end_of_data;

/**
 * The fill machine: runs a decider over bars, one bar at a time, and settles every order. The fills, in the order
 * they are checked inside a bar:
 *
 * 1. An entry armed at a bar's close fills at the next bar's open, slippage against the trade. The decider then
 *    places the stop from that fill; a stop not beyond the fill skips the entry.
 * 2. A rule exit decided at a bar's close fills at the next bar's open, slippage against the trade.
 * 3. At the open of a bar in a trade: an open at or through the stop exits at the open (a gap fills where the
 *    market is, not at the stop), slippage against; an open at or beyond the target exits at the open (a limit
 *    order fills at its price or better); an open at or after a scheduled deadline exits at the open, slippage
 *    against (a deadline that passed while the market was shut, a holiday's early close say, is met at the next
 *    open).
 * 4. Inside the bar: the stop is assumed hit first when both the stop and the target lie in its range; the stop
 *    fills at the stop, slippage against; the target at the target.
 * 5. At the close: the decider moves the stop (breakeven, trail), re-reads a level target, and schedules exits:
 *    a time, clock or session exit fills at this close, slippage against; a rule exit waits for the next open.
 *    The bar a trade ends in (other than at its close) may arm the next entry at its close.
 * A trade still open after the last bar exits at the last close (end_of_data). Prices are kept on the tick grid.
 * R: (side x (exit - entry) - fees) / risk, where risk is the entry fill to the initial stop.
 */

/** Where in a bar an exit filled. */
const AT_OPEN = 0;
const IN_RANGE = 1;
const AT_CLOSE = 2;

export interface Fill {
  tf: number;
  tick: number;
  /** Slippage in price. */
  slippage: number;
  fee: Costs['fee'];
}

/** How a rule's orders fill at these costs (its market's by default): its bar length, tick, slippage and fee. */
export const fillOf = (ir: DeciderIR, costs: Costs = DEFAULT_COSTS[ir.market]): Fill => ({
  tf: ir.tf_seconds,
  tick: ir.tick,
  slippage: slippageOf(ir.market, costs),
  fee: costs.fee,
});

/**
 * One trade as the machine records it (bar indices, prices after slippage, R after fees). A class rather than an
 * object literal: V8 follows each literal's allocation site and, when a collection happens to find every record of a
 * run still alive (as it does mid-run), has that site allocate in the old generation from then on, which made every
 * later run of the process about 50% slower; it does not do so for objects a constructor makes.
 */
export class TradeRecord {
  constructor(
    readonly dir: number,
    readonly fill: number,
    readonly entry: number,
    readonly stop: number,
    /** The target the fill placed, on the tick grid (a level target is read again at each close); NaN when none. */
    readonly target: number,
    readonly exitBar: number,
    readonly exitT: number,
    readonly exit: number,
    readonly r: number,
    readonly why: number,
  ) {}
}

export class Machine {
  readonly st: DeciderState = freshState();
  /** 1 / tick: prices are put on the tick grid as round(x * inv) / inv. */
  private readonly inv: number;
  /** A side's fee is feeFixed + price * feeRate. */
  private readonly feeFixed: number;
  private readonly feeRate: number;
  /** Slippage in price, read every bar of a trade. */
  private readonly slip: number;
  private readonly t: Float64Array;
  private readonly o: Float64Array;
  private readonly h: Float64Array;
  private readonly l: Float64Array;
  private readonly c: Float64Array;
  /** The stop placed at the fill: the risk's other end. */
  initialStop = NaN;
  /** The target placed at the fill. */
  initialTarget = NaN;
  /** The last exit: its bar, where in it, time, price, R. */
  exitBar = -1;
  exitWhere = AT_OPEN;
  exitT = NaN;
  exitPx = NaN;
  exitR = NaN;

  constructor(
    private readonly decider: Decider,
    private readonly s: DeciderSeries,
    private readonly fills: Fill,
  ) {
    this.inv = Math.round(1 / fills.tick);
    this.feeFixed = fills.fee.unit === 'points' ? fills.fee.per_side : 0;
    this.feeRate = fills.fee.unit === 'bps' ? fills.fee.per_side / 10_000 : 0;
    this.slip = fills.slippage;
    ({ t: this.t, o: this.o, h: this.h, l: this.l, c: this.c } = s);
  }

  private q(x: number): number {
    return Math.round(x * this.inv) / this.inv;
  }

  /** R of a trade (side, entry fill, risk) leaving at `price`, which is first put on the tick grid. */
  rOf(dir: number, entry: number, risk: number, price: number): number {
    const exit = Math.round(price * this.inv) / this.inv;
    return (dir * (exit - entry) - 2 * this.feeFixed - (entry + exit) * this.feeRate) / risk;
  }

  private exit(i: number, price: number, at: number, why: number): true {
    const st = this.st;
    this.exitBar = i;
    this.exitWhere = at;
    this.exitT = at === AT_CLOSE ? this.t[i]! + this.fills.tf : this.t[i]!;
    this.exitPx = this.q(price);
    this.exitR = this.rOf(st.dir, st.entry, st.risk, price);
    st.why = why;
    st.phase = FLAT;
    return true;
  }

  /** Fills the armed entry at the open of bar f; false when the decider refused the stop. */
  enter(f: number): boolean {
    const st = this.st;
    const price = this.q(this.o[f]! + st.dir * this.fills.slippage);
    if (!this.decider.fill(f, price, st, this.s)) return false;
    this.initialStop = st.stop;
    this.initialTarget = this.q(st.target);
    return true;
  }

  /** The pending rule exit, at the open of bar i. */
  private exitAtOpen(i: number): true {
    return this.exit(i, this.o[i]! - this.st.dir * this.fills.slippage, AT_OPEN, this.st.why);
  }

  /**
   * Steps an open trade (in a position, or exiting at the next open) through bars [from, last): answers the bar it
   * ended in, its exit recorded, or -1 when it is still open at the close of bar last - 1. Each bar: a pending rule exit
   * at the open; else the open, the range, then the close. One loop with the bars in hand: a trade's
   * bars are most of the bars the stepper steps.
   */
  step(from: number, last: number): number {
    if (!this.decider.MANAGES) return this.hold(from, last);
    const st = this.st;
    const { o, h, l, t, c, slip, decider, s } = this;
    for (let i = from; i < last; i++) {
      if (st.phase === EXITING) {
        this.exitAtOpen(i);
        return i;
      }
      const d = st.dir;
      const open = o[i]!;
      const stop = st.stop;
      const target = st.target;
      if (d * (open - stop) <= 0) return this.exitAt(i, open - d * slip, AT_OPEN, st.stopWhy);
      if (d * (open - target) >= 0) return this.exitAt(i, open, AT_OPEN, TARGET);
      if (t[i]! >= st.deadline) return this.exitAt(i, open - d * slip, AT_OPEN, st.deadlineWhy);
      if (d > 0 ? l[i]! <= stop : h[i]! >= stop) return this.exitAt(i, stop - d * slip, IN_RANGE, st.stopWhy);
      if (d > 0 ? h[i]! >= target : l[i]! <= target) return this.exitAt(i, target, IN_RANGE, TARGET);
      decider.decide(i, st, s);
      if (st.phase === CLOSING) return this.exitAt(i, c[i]! - d * slip, AT_CLOSE, st.why);
    }
    return -1;
  }

  /**
   * step for a decider that does nothing while a trade is open: the stop and the target stay where the fill put them
   * (only decide moves them), no rule exit is ever pending, and there is no deadline (every scheduled exit is met in
   * decide, so a rule with one manages its trades). So the stop and target are read once and the bars are checked at
   * the open and in the range only, with the same fills in the same order as step.
   */
  private hold(from: number, last: number): number {
    const st = this.st;
    const { o, h, l, slip } = this;
    const d = st.dir;
    const stop = st.stop;
    const target = st.target;
    for (let i = from; i < last; i++) {
      const open = o[i]!;
      if (d * (open - stop) <= 0) return this.exitAt(i, open - d * slip, AT_OPEN, st.stopWhy);
      if (d * (open - target) >= 0) return this.exitAt(i, open, AT_OPEN, TARGET);
      if (d > 0 ? l[i]! <= stop : h[i]! >= stop) return this.exitAt(i, stop - d * slip, IN_RANGE, st.stopWhy);
      if (d > 0 ? h[i]! >= target : l[i]! <= target) return this.exitAt(i, target, IN_RANGE, TARGET);
    }
    return -1;
  }

  private exitAt(i: number, price: number, at: number, why: number): number {
    this.exit(i, price, at, why);
    return i;
  }

  /** Ends an open trade at the close of bar i (the data ran out). */
  endAt(i: number): true {
    return this.exit(i, this.c[i]! - this.st.dir * this.fills.slippage, AT_CLOSE, END_OF_DATA);
  }

  private record(): TradeRecord {
    const st = this.st;
    return new TradeRecord(st.dir, st.fill, st.entry, this.initialStop, this.initialTarget, this.exitBar, this.exitT, this.exitPx, this.exitR, st.why);
  }

  /**
   * The rule itself over bars [start, end): decisions from bar max(start, 1) (a cross reads the bar before), the
   * bars before start only warm the series. Answers the trades and how many entries were skipped.
   */
  run(start: number, end: number): { trades: TradeRecord[]; skipped: number } {
    const trades: TradeRecord[] = [];
    const skipped = this.walk(start, end, () => void trades.push(this.record()));
    return { trades, skipped };
  }

  /** The rule over bars [start, end) as run steps it, its trades kept as columns (for runs read in bulk). */
  columns(start: number, end: number): TradeColumns {
    const out = new TradeColumns();
    this.walk(start, end, () => out.push(this.st.dir, this.st.fill, this.exitBar, this.exitR));
    return out;
  }

  /** Steps bars [start, end), telling `ended` as each trade ends (its exit recorded); answers the entries skipped. */
  private walk(start: number, end: number, ended: () => void): number {
    const st = this.st;
    Object.assign(st, freshState());
    let skipped = 0;
    let i = start > 1 ? start : 1;
    while (i < end) {
      // Flat: the decider reads bar after bar until it arms an entry.
      if (st.phase === FLAT) {
        const armed = this.decider.scan(i, end, st, this.s);
        if (armed < 0) break;
        i = armed + 1;
        continue;
      }
      // An armed entry fills at this open; refused, the bar is a flat one.
      if (st.phase === ARMED && !this.enter(i)) {
        skipped++;
        continue;
      }
      const exitBar = this.step(i, end);
      if (exitBar < 0) break;
      ended();
      i = exitBar;
      // The bar a trade ends in (other than at its close) may arm the next entry at its close.
      if (this.exitWhere === AT_CLOSE) i++;
    }
    if (st.phase === IN_LONG || st.phase === IN_SHORT || st.phase === EXITING) {
      this.endAt(end - 1);
      ended();
    }
    return skipped;
  }
}
