/**
 * The contract between a generated decider and the stepper that runs it.
 *
 * A decider is a small module of three pure functions over one mutable state and read-only series:
 *   decide(i, st, s)        at the close of bar i: when flat, the gates and triggers may arm an entry; when in a
 *                           position, it moves the stop (breakeven, trail), re-reads a level target, and may ask
 *                           for a scheduled exit at this close (closing) or a rule exit at the next open (exiting).
 *   arm(i, st, dir)         arms an entry on signal bar i (dir 1 long, -1 short); decide calls it, and so does
 *                           the random null, which arms at random bars under the same stop and exit rules.
 *   fill(f, price, st, s)   at the open of bar f, after the stepper filled the armed entry at `price`: sets the
 *                           stop, target, breakeven trigger and deadlines from data up to the signal bar only.
 *                           Answers false (and goes flat) when the stop does not sit on the losing side of the
 *                           fill, so no trade ever starts without risk.
 * Where prices go (fills, slippage, fees, which of stop and target comes first) is the stepper's; what the rule
 * says (when to enter, where the stop, target and trail sit, when time is up) is the decider's.
 */

/**
 * The states of the gated machine, by number (the IR lists them by name, in this order): flat; armed, an entry
 * decided at a bar's close and waiting for the next bar's open; in_long and in_short; exiting, a rule exit decided
 * at a bar's close and waiting for the next open; closing, a scheduled exit (time, clock, session) that fills at
 * this very close, which the stepper settles at once.
 * One object rather than separate exports: hot loops copy its numbers into module constants once (a module loader
 * may turn every read of an imported binding into a property read).
 */
export const PHASE = { FLAT: 0, ARMED: 1, IN_LONG: 2, IN_SHORT: 3, EXITING: 4, CLOSING: 5 } as const;

export const STATES = ['flat', 'armed', 'in_long', 'in_short', 'exiting', 'closing'] as const;
export type StateName = (typeof STATES)[number];

/** Why a trade ended, by number in the state and by name in a trade. */
export const EXIT_WHY = [
  'stop',
  'breakeven',
  'trail',
  'target',
  'exit_rule',
  'time',
  'clock',
  'session_close',
  'session_end',
  'end_of_data',
  'hold',
] as const;
export type ExitWhy = (typeof EXIT_WHY)[number];
export const WHY = Object.fromEntries(EXIT_WHY.map((w, i) => [w, i])) as { readonly [K in ExitWhy]: number };

/** The decider's state: one object, reused for every trade, so the loop allocates nothing. */
export interface DeciderState {
  phase: number;
  /** 1 long, -1 short. */
  dir: number;
  /** The bar whose close armed the entry. */
  signal: number;
  /** The bar at whose open the entry filled. */
  fill: number;
  entry: number;
  /** The live stop; the initial stop is entry - dir * risk. */
  stop: number;
  /** What put the stop where it is: stop, breakeven or trail (WHY). */
  stopWhy: number;
  /** The live target; NaN when there is none (or a level target is not beyond the entry). */
  target: number;
  /** Entry to the initial stop, in price: 1R. */
  risk: number;
  /** The best price reached since the entry (highest high long, lowest low short), bar closes included. */
  best: number;
  /** The price whose reach moves the stop to the entry; NaN when none or done. */
  beAt: number;
  /** The earliest scheduled exit instant (unix seconds), Infinity when none, and why. */
  deadline: number;
  deadlineWhy: number;
  /** The last bar a bars-count time exit lets the trade live to (it closes at that bar's close). */
  lastBar: number;
  /** Why a pending exit (exiting, closing) happens. */
  why: number;
  /** The watermark, touched on every arm: part of the logic, so it survives any reformatting of the code. */
  seal: number;
}

export function freshState(): DeciderState {
  return {
    phase: PHASE.FLAT,
    dir: 0,
    signal: -1,
    fill: -1,
    entry: NaN,
    stop: NaN,
    stopWhy: WHY.stop,
    target: NaN,
    risk: NaN,
    best: NaN,
    beAt: NaN,
    deadline: Infinity,
    deadlineWhy: 0,
    lastBar: Infinity,
    why: 0,
    seal: 0,
  };
}

/**
 * What a decider reads: the bars (open time t, o, h, l, c, v), the trader's marks as price intervals (a level is
 * lo = hi; shape 0 level, 1 zone) and one Float64Array per series the IR lists, by the series' id.
 */
export interface DeciderSeries {
  readonly [id: string]: Float64Array | Uint8Array;
  readonly t: Float64Array;
  readonly o: Float64Array;
  readonly h: Float64Array;
  readonly l: Float64Array;
  readonly c: Float64Array;
  readonly v: Float64Array;
  readonly markLo: Float64Array;
  readonly markHi: Float64Array;
  readonly markShape: Uint8Array;
}

/** The generated module: its constants and its three functions. */
export interface DeciderModule {
  readonly SEED_HASH: string;
  readonly VERSION: string;
  /** Whether decide does anything while a trade is open (moves the stop, re-reads a target, schedules an exit). */
  readonly MANAGES: boolean;
  decide(i: number, st: DeciderState, s: DeciderSeries): void;
  arm(i: number, st: DeciderState, dir: number): void;
  fill(f: number, price: number, st: DeciderState, s: DeciderSeries): boolean;
}

/** What the stepper runs: a generated module with the stepper's flat-bar loop compiled beside it (compile.ts). */
export interface Decider extends DeciderModule {
  /** decide at the close of each of the flat bars [from, end) until one arms an entry: that bar, or -1 when none does. */
  scan(from: number, end: number, st: DeciderState, s: DeciderSeries): number;
}
