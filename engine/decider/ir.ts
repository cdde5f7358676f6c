import { MARKET_SPECS, pointsOfDollars, TIMEFRAME_SECONDS, type Market, type Timeframe } from '../markets.js';
import type {
  Condition,
  LevelOp,
  LineOp,
  Operand as ReadOperand,
  Side,
  StopDistance,
  TargetDistance as ReadTargetDistance,
  TimeExit,
  Zone,
} from '../reader/schema.js';
import { canonicalJson } from './canonical.js';
import { STATES, type StateName } from './contract.js';
import type { Script } from './script.js';

/**
 * The decider IR (decider.v1): a script resolved into what a stepper runs, as canonical JSON.
 *
 * - series: every input the logic reads besides the bars, each computed once and named by a stable id made of its
 *   kind and parameters (ema_9, atr_14, prior_day_high, session_gate, clock_15_55_america_new_york, ...).
 * - conditions: the reader's condition trees with each operand turned into a reference: a bar field, a series id,
 *   a constant, the signal or previous bar, a zone (two references) or the trader's marks. Undirected operators
 *   (crosses, breaks) in a trigger are turned to its side; and/or arguments are flattened and sorted.
 * - stop, breakeven, target, trail: distances in the units the stepper uses: price (points, ticks times the
 *   market's tick, and dollars over the dollars a point of one contract or coin is worth), fraction (percent / 100,
 *   of the entry or of the level), atr (a multiple of an ATR series) and r.
 * - time exits: bars, seconds (minutes and hours), or a clock series (a clock time, the session's close).
 * - the machine: its states and transitions, only those this rule can reach.
 * Refusals (a length the words did not give, a stop on the wrong side of the trade, ...) are DeciderRefusal,
 * naming the part.
 */
export const IR_VERSION = 'decider.v1';

export type BarField = 'o' | 'h' | 'l' | 'c';
export type Value =
  | { src: 'bar'; field: BarField }
  | { src: 'series'; id: string }
  | { src: 'constant'; value: number }
  /** The bar whose close armed the trade (in a trigger: the bar being read). */
  | { src: 'signal_bar'; field: 'h' | 'l' }
  /** The bar before the one being read. */
  | { src: 'previous_bar'; field: 'h' | 'l' };

export type MarkShape = 'level' | 'zone' | 'any';
/** A price (lo = hi), a zone between two prices, or the trader's marks (any mark that satisfies the condition). */
export type Operand = { kind: 'point'; at: Value } | { kind: 'zone'; lo: Value; hi: Value } | { kind: 'mark'; shape: MarkShape };

export type Cond =
  | { op: 'and' | 'or'; args: Cond[] }
  | { op: LineOp; left: Operand; right: Operand }
  | { op: LevelOp; level: Operand };

export type Distance =
  | { unit: 'price'; value: number }
  | { unit: 'fraction'; value: number }
  | { unit: 'atr'; mult: number; series: string }
  /** A multiple of a range's height: its hi series less its lo series. */
  | { unit: 'range'; mult: number; lo: string; hi: string };
export type TargetDistance = Distance | { unit: 'r'; value: number };

export type StopIR =
  | { kind: 'distance'; distance: Distance }
  /**
   * Fixed at the signal bar: at the level, or the offset beyond it (one tick when the words give none): below it,
   * above it, or beyond it on the side the trade leaves by (below a long, above a short).
   */
  | { kind: 'level'; where: 'at' | 'below' | 'above' | 'beyond'; level: Operand; offset: Distance };
export type TargetIR = { kind: 'distance'; distance: TargetDistance } | { kind: 'level'; level: Operand };
export type TrailIR = { kind: 'distance'; distance: Distance } | { kind: 'level'; level: Operand };
export type TimeIR =
  | { kind: 'bars'; n: number }
  | { kind: 'seconds'; n: number }
  | { kind: 'clock'; series: string }
  | { kind: 'session_close'; series: string };

/** Minutes of the local day, [from, to); to may be 1440; from > to runs through midnight. */
export interface WindowIR {
  from: number;
  to: number;
}

/** The trading day: 00:00 UTC for crypto; 17:00 Chicago (the CME session's start) for NQ, ES, YM. */
export type TradingDay = 'utc' | 'cme';

/** A time of day on a zone's wall clock: minute of the local day. */
export interface ClockIR {
  zone: Zone;
  minute: number;
}

/**
 * When entries are allowed: the windows, and the clock exits that close a window's entries once they come round
 * after it opens (until, absent when the rule has none).
 */
export interface GateParams {
  zone: Zone;
  windows: WindowIR[];
  until?: ClockIR[];
}

export type SeriesSpec =
  | { id: string; kind: 'ema' | 'sma' | 'rsi'; params: { n: number }; source: 'close' }
  | { id: string; kind: 'atr'; params: { n: number }; source: 'high,low,close' }
  | { id: string; kind: 'vwap'; params: { day: TradingDay }; source: 'hlc3,volume' }
  /** Of the n bars before the current one. */
  | { id: string; kind: 'highest'; params: { n: number }; source: 'high' }
  | { id: string; kind: 'lowest'; params: { n: number }; source: 'low' }
  /** The last complete trading day's high, low or close. */
  | { id: string; kind: 'prior_day'; params: { field: 'high' | 'low' | 'close'; day: TradingDay }; source: 'high' | 'low' | 'close' }
  /** The high or low of the bars opening in the first `minutes` after the day's open (zone, minute of day). */
  | {
      id: string;
      kind: 'opening_range';
      params: { field: 'high' | 'low'; minutes: number; zone: Zone; open: number };
      source: 'high' | 'low';
    }
  /**
   * 1 when the bar's close (the decision instant) falls in a window and before the first of the until clocks to
   * come round after that window opened, else 0.
   */
  | { id: string; kind: 'session_gate'; params: GateParams; source: 'time' }
  /** The end of the window holding the bar's close. */
  | { id: string; kind: 'session_end'; params: { zone: Zone; windows: WindowIR[] }; source: 'time' }
  /** The first instant after the bar's open when the zone's clock reads `minute`. */
  | { id: string; kind: 'next_clock'; params: { zone: Zone; minute: number }; source: 'time' }
  /**
   * The most recent swing high (low): the high (low) of a bar that the `strength` bars before it do not reach
   * and the `strength` bars after it do not pass, known at the close of the last of those.
   */
  | { id: string; kind: 'swing'; params: { field: 'high' | 'low'; strength: number }; source: 'high' | 'low' }
  /** A Bollinger band of the closes: the SMA of n (middle), plus or minus k population standard deviations. */
  | { id: string; kind: 'bollinger'; params: { band: 'upper' | 'middle' | 'lower'; n: number; k: number }; source: 'close' };

export interface Transition {
  from: StateName;
  to: StateName;
  on: string;
}

export interface DeciderIR {
  ir: typeof IR_VERSION;
  market: Market;
  timeframe: Timeframe;
  tf_seconds: number;
  tick: number;
  side: Side;
  states: StateName[];
  transitions: Transition[];
  session: { kind: 'always' } | ({ kind: 'windows'; gate: string; end: string } & GateParams);
  /** A trade still open when its session window ends is closed at that close (unless a clock exit governs). */
  flat_at_session_end: boolean;
  series: SeriesSpec[];
  entry: { long: Cond | null; short: Cond | null };
  stop: StopIR;
  breakeven: TargetDistance | null;
  target: TargetIR | null;
  trail: TrailIR | null;
  time: TimeIR[];
  exit_when: Cond | null;
  /** Bars of history to load before the first bar that may trade, so every series is warm. */
  warm_up_bars: number;
}

export type ScriptPart = 'market' | 'timeframe' | 'session' | 'side' | 'entry' | 'stop' | 'exit';

/** A script the forge cannot turn into a decider, which part says what cannot be done, and words that would do. */
export class DeciderRefusal extends Error {
  constructor(
    readonly part: ScriptPart,
    message: string,
    readonly hint?: string,
  ) {
    super(`${part}: ${message}`);
    this.name = 'DeciderRefusal';
  }
}

const MINUTE = 60;
const DAY = 86_400;
const CASH_OPEN = 9 * 60 + 30;
const CASH_CLOSE = 16 * 60;

const minuteOf = (clock: string): number => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
const slug = (zone: Zone): string => zone.toLowerCase().replace('/', '_');
const clockId = (minute: number, zone: Zone): string =>
  `clock_${String(Math.floor(minute / 60)).padStart(2, '0')}_${String(minute % 60).padStart(2, '0')}_${slug(zone)}`;
const byCanonical = <T>(a: T, b: T): number => {
  const x = canonicalJson(a);
  const y = canonicalJson(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** Resolves one script; collects each series once. */
class Resolver {
  readonly series = new Map<string, SeriesSpec>();
  readonly tf: number;
  readonly tick: number;
  readonly day: TradingDay;

  constructor(readonly script: Script) {
    this.tf = TIMEFRAME_SECONDS[script.timeframe];
    this.tick = MARKET_SPECS[script.market].tick;
    this.day = MARKET_SPECS[script.market].kind === 'cme' ? 'cme' : 'utc';
  }

  private add(spec: SeriesSpec): string {
    this.series.set(spec.id, spec);
    return spec.id;
  }

  private length(n: number | null, what: string, part: ScriptPart): number {
    if (n === null) throw new DeciderRefusal(part, `the ${what}'s length is not stated`, "give its length: 'the 20 EMA', 'RSI(14)', 'the 15-minute opening range'");
    return n;
  }

  atr(period: number | null, part: ScriptPart): string {
    const n = this.length(period, 'ATR', part);
    return this.add({ id: `atr_${n}`, kind: 'atr', params: { n }, source: 'high,low,close' });
  }

  /** Ticks as a price: n / (1 / tick), which lands on the nearest double to the decimal price. */
  private ticks(n: number): number {
    return n / Math.round(1 / this.tick);
  }

  distance(d: StopDistance, part: ScriptPart): Distance {
    switch (d.unit) {
      case 'range': {
        const range = this.operand({ kind: 'opening_range', field: 'range', minutes: d.of.minutes }, part);
        if (range.kind !== 'zone' || range.lo.src !== 'series' || range.hi.src !== 'series') throw new DeciderRefusal(part, 'a multiple of a range needs the range');
        return { unit: 'range', mult: d.n, lo: range.lo.id, hi: range.hi.id };
      }
      case 'points':
        return { unit: 'price', value: d.n };
      case 'ticks':
        return { unit: 'price', value: this.ticks(d.n) };
      case 'percent':
        return { unit: 'fraction', value: d.n / 100 };
      case 'atr':
        return { unit: 'atr', mult: d.n, series: this.atr(d.period, part) };
      case 'usd': {
        const value = pointsOfDollars(this.script.market, d.n, d.micro === true);
        if (value === null) throw new DeciderRefusal(part, `a micro contract is a futures contract; ${this.script.market} has none`);
        return { unit: 'price', value };
      }
    }
  }

  targetDistance(d: ReadTargetDistance, part: ScriptPart): TargetDistance {
    return d.unit === 'r' ? { unit: 'r', value: d.n } : this.distance(d, part);
  }

  operand(o: ReadOperand, part: ScriptPart): Operand {
    const point = (at: Value): Operand => ({ kind: 'point', at });
    const series = (spec: SeriesSpec): Operand => point({ src: 'series', id: this.add(spec) });
    switch (o.kind) {
      case 'price':
        return point({ src: 'bar', field: o.field === 'open' ? 'o' : o.field === 'high' ? 'h' : o.field === 'low' ? 'l' : 'c' });
      case 'ema':
      case 'sma':
      case 'rsi': {
        const n = this.length(o.n, o.kind.toUpperCase(), part);
        return series({ id: `${o.kind}_${n}`, kind: o.kind, params: { n }, source: 'close' });
      }
      case 'atr':
        return point({ src: 'series', id: this.atr(o.n, part) });
      case 'vwap':
        return series({ id: 'vwap', kind: 'vwap', params: { day: this.day }, source: 'hlc3,volume' });
      case 'highest':
        return series({ id: `highest_${o.n}`, kind: 'highest', params: { n: o.n }, source: 'high' });
      case 'lowest':
        return series({ id: `lowest_${o.n}`, kind: 'lowest', params: { n: o.n }, source: 'low' });
      case 'prior_day':
        return series({ id: `prior_day_${o.field}`, kind: 'prior_day', params: { field: o.field, day: this.day }, source: o.field });
      case 'opening_range': {
        const minutes = this.length(o.minutes, 'opening range', part);
        if (minutes * MINUTE < this.tf || (minutes * MINUTE) % this.tf !== 0) {
          throw new DeciderRefusal(
            part,
            `an opening range of ${minutes} minutes cannot be built from ${this.script.timeframe} bars`,
            `give the range in whole ${this.script.timeframe} bars: a multiple of ${this.tf / MINUTE >= 1 ? `${this.tf / MINUTE} minute${this.tf === MINUTE ? '' : 's'}` : 'a minute'}`,
          );
        }
        const open = this.day === 'cme' ? { zone: 'America/New_York' as const, open: CASH_OPEN } : { zone: 'UTC' as const, open: 0 };
        const side = (field: 'high' | 'low'): Value => ({
          src: 'series',
          id: this.add({ id: `opening_range_${minutes}_${field}`, kind: 'opening_range', params: { field, minutes, ...open }, source: field }),
        });
        if (o.field === 'range') return { kind: 'zone', lo: side('low'), hi: side('high') };
        return point(side(o.field));
      }
      case 'mark':
        return { kind: 'mark', shape: o.shape };
      case 'bar':
        return point({ src: o.bar === 'signal' ? 'signal_bar' : 'previous_bar', field: o.field === 'high' ? 'h' : 'l' });
      case 'swing': {
        if (o.strength === null) throw new DeciderRefusal(part, "the swing's bars on each side are not stated");
        return series({ id: `swing_${o.field}_${o.strength}`, kind: 'swing', params: { field: o.field, strength: o.strength }, source: o.field });
      }
      case 'bollinger': {
        const n = this.length(o.n, 'Bollinger bands', part);
        if (o.k === null) throw new DeciderRefusal(part, "the Bollinger bands' width is not stated");
        return series({ id: `bollinger_${n}_${String(o.k).replace('.', 'p')}_${o.band}`, kind: 'bollinger', params: { band: o.band, n, k: o.k }, source: 'close' });
      }
      case 'constant':
        return point({ src: 'constant', value: o.value });
    }
  }

  /** A condition with its operands resolved; `dir` turns crosses and breaks to a trigger's side. */
  cond(c: Condition, part: ScriptPart, dir: 1 | -1 | 0): Cond {
    if ('args' in c) {
      const args = c.args.flatMap((a) => {
        const r = this.cond(a, part, dir);
        return r.op === c.op ? (r as { args: Cond[] }).args : [r];
      });
      return { op: c.op, args: args.sort(byCanonical) };
    }
    if ('level' in c) {
      const op = c.op === 'breaks' && dir !== 0 ? (dir > 0 ? 'breaks_above' : 'breaks_below') : c.op;
      return { op, level: this.operand(c.level, part) };
    }
    const op = c.op === 'crosses' && dir !== 0 ? (dir > 0 ? 'crosses_above' : 'crosses_below') : c.op;
    return { op, left: this.operand(c.left, part), right: this.operand(c.right, part) };
  }

  sessionSeries(zone: Zone, windows: WindowIR[], until: ClockIR[]): { gate: string; end: string } {
    const params = { zone, windows };
    return {
      gate: this.add({ id: 'session_gate', kind: 'session_gate', params: until.length > 0 ? { ...params, until } : params, source: 'time' }),
      end: this.add({ id: 'session_end', kind: 'session_end', params, source: 'time' }),
    };
  }

  clock(minute: number, zone: Zone): string {
    return this.add({ id: clockId(minute, zone), kind: 'next_clock', params: { zone, minute }, source: 'time' });
  }
}

/** Does the condition read an undirected operator (crosses, breaks)? Only those can be turned to a side. */
const undirected = (c: Condition): boolean =>
  'args' in c ? c.args.some(undirected) : c.op === 'crosses' || c.op === 'breaks';

function entryOf(script: Script, r: Resolver): DeciderIR['entry'] {
  const entry: DeciderIR['entry'] = { long: null, short: null };
  const take = (side: 'long' | 'short', when: Condition) => {
    if (script.side !== 'both' && script.side !== side) throw new DeciderRefusal('entry', `a ${side} trigger, but the side is ${script.side}`);
    if (entry[side] !== null) throw new DeciderRefusal('entry', `two triggers take the ${side} side; join them with and / or`);
    entry[side] = r.cond(when, 'entry', side === 'long' ? 1 : -1);
  };
  for (const trigger of script.entry.triggers) {
    if (trigger.side !== null) take(trigger.side, trigger.when);
    else if (script.side !== 'both') take(script.side, trigger.when);
    else if (!undirected(trigger.when)) {
      throw new DeciderRefusal('entry', 'a trigger names no side and its condition gives no direction; say which side it takes');
    } else {
      take('long', trigger.when);
      take('short', trigger.when);
    }
  }
  if (entry.long === null && entry.short === null) throw new DeciderRefusal('entry', 'no trigger takes a side the rule trades');
  return entry;
}

function stopOf(script: Script, r: Resolver, entry: DeciderIR['entry']): StopIR {
  const stop = script.stop;
  if (stop.kind === 'distance') return { kind: 'distance', distance: r.distance(stop.distance, 'stop') };
  const either = "or 'beyond' it, which is below for a long and above for a short";
  if (entry.long && stop.where === 'above') throw new DeciderRefusal('stop', 'a stop above a level does not protect a long', `say the stop below its level, ${either}`);
  if (entry.short && stop.where === 'below') throw new DeciderRefusal('stop', 'a stop below a level does not protect a short', `say the stop above its level, ${either}`);
  const offset: Distance = stop.offset ? r.distance(stop.offset, 'stop') : { unit: 'price', value: stop.where === 'at' ? 0 : r.tick };
  return { kind: 'level', where: stop.where, level: r.operand(stop.level, 'stop'), offset };
}

function timeOf(script: Script, r: Resolver, session: DeciderIR['session']): TimeIR[] {
  const one = (t: TimeExit): TimeIR => {
    switch (t.kind) {
      case 'bars':
        return { kind: 'bars', n: t.n };
      case 'minutes':
        return { kind: 'seconds', n: t.n * MINUTE };
      case 'hours':
        return { kind: 'seconds', n: t.n * 3600 };
      case 'clock':
        return { kind: 'clock', series: r.clock(minuteOf(t.at), t.zone) };
      case 'session_close':
        if (session.kind === 'windows') return { kind: 'session_close', series: session.end };
        return {
          kind: 'session_close',
          series: r.day === 'cme' ? r.clock(CASH_CLOSE, 'America/New_York') : r.clock(0, 'UTC'),
        };
    }
  };
  const seen = new Map<string, TimeIR>();
  for (const t of script.exit.time ?? []) {
    const ir = one(t);
    seen.set(canonicalJson(ir), ir);
  }
  return [...seen.values()].sort(byCanonical);
}

/**
 * Bars of history before the first decision. A read of the previous bar may sit inside a cross, which looks one
 * bar further back again, so a rule that reads the previous bar needs two bars before its first.
 */
function warmUpOf(series: SeriesSpec[], tf: number, readsPreviousBar: boolean): number {
  const days = (n: number) => Math.ceil((n * DAY) / tf);
  let bars = readsPreviousBar ? 2 : 1;
  for (const s of series) {
    const need =
      s.kind === 'ema' || s.kind === 'rsi' || s.kind === 'atr'
        ? 3 * s.params.n + 1
        : s.kind === 'sma' || s.kind === 'highest' || s.kind === 'lowest' || s.kind === 'bollinger'
          ? s.params.n + 1
          : s.kind === 'swing'
            ? swingWarmUp(s.params.strength)
            : s.kind === 'prior_day'
              ? days(2)
              : s.kind === 'vwap' || s.kind === 'opening_range'
                ? days(1)
                : 0;
    bars = Math.max(bars, need);
  }
  return bars;
}

/**
 * Bars before a swing series is settled: the most recent swing may be any bar back, so enough for several swings
 * to form (ten times the bars one swing spans); after a longer run without one, more history may find an older one.
 */
export const swingWarmUp = (strength: number): number => 10 * (2 * strength + 1);

function machineOf(ir: Omit<DeciderIR, 'states' | 'transitions'>): { states: StateName[]; transitions: Transition[] } {
  const t: Transition[] = [];
  const sides = [...(ir.entry.long ? (['long'] as const) : []), ...(ir.entry.short ? (['short'] as const) : [])];
  for (const side of sides) {
    const held: StateName = side === 'long' ? 'in_long' : 'in_short';
    t.push({ from: 'flat', to: 'armed', on: `${side}_trigger` });
    t.push({ from: 'armed', to: held, on: 'fill' });
    t.push({ from: held, to: 'flat', on: 'stop' });
    t.push({ from: held, to: 'flat', on: 'end_of_data' });
    if (ir.target) t.push({ from: held, to: 'flat', on: 'target' });
    if (ir.exit_when) t.push({ from: held, to: 'exiting', on: 'exit_rule' });
    if (ir.time.length > 0 || ir.flat_at_session_end) t.push({ from: held, to: 'closing', on: 'time' });
  }
  t.push({ from: 'armed', to: 'flat', on: 'stop_not_beyond_fill' });
  if (ir.exit_when) t.push({ from: 'exiting', to: 'flat', on: 'next_open' });
  if (ir.time.length > 0 || ir.flat_at_session_end) t.push({ from: 'closing', to: 'flat', on: 'this_close' });
  const used = new Set(t.flatMap((x) => [x.from, x.to]));
  return { states: STATES.filter((s) => used.has(s)), transitions: t.sort(byCanonical) };
}

/** The rule's clock exits, each once, in canonical order. */
function clockExitsOf(script: Script): ClockIR[] {
  const clocks = (script.exit.time ?? []).flatMap((t) => (t.kind === 'clock' ? [{ zone: t.zone, minute: minuteOf(t.at) }] : []));
  return clocks.filter((c, i) => clocks.findIndex((x) => x.zone === c.zone && x.minute === c.minute) === i).sort(byCanonical);
}

/** The decider IR of a script: pure and canonical (the same script gives the same IR, key for key). */
export function irOf(script: Script): DeciderIR {
  const r = new Resolver(script);
  let session: DeciderIR['session'] = { kind: 'always' };
  if (script.session.kind === 'windows') {
    const windows = script.session.windows
      .map((w) => ({ from: minuteOf(w.from), to: minuteOf(w.to) }))
      .filter((w, i, all) => all.findIndex((x) => x.from === w.from && x.to === w.to) === i)
      .sort((a, b) => a.from - b.from || a.to - b.to);
    if (windows.some((w) => w.from === w.to)) throw new DeciderRefusal('session', 'a window that ends where it starts holds no time');
    // A clock exit closes the entry window too: no entry once its time has come round in a window.
    const until = clockExitsOf(script);
    const { zone } = script.session;
    session = { kind: 'windows', zone, windows, ...(until.length > 0 ? { until } : {}), ...r.sessionSeries(zone, windows, until) };
  }
  const entry = entryOf(script, r);
  const stop = stopOf(script, r, entry);
  const breakeven = script.stop.breakeven ? r.targetDistance(script.stop.breakeven, 'stop') : null;
  const exit = script.exit;
  const target: TargetIR | null = !exit.target
    ? null
    : exit.target.kind === 'distance'
      ? { kind: 'distance', distance: r.targetDistance(exit.target.distance, 'exit') }
      : { kind: 'level', level: r.operand(exit.target.level, 'exit') };
  const trail: TrailIR | null = !exit.trail
    ? null
    : exit.trail.kind === 'distance'
      ? { kind: 'distance', distance: r.distance(exit.trail.distance, 'exit') }
      : { kind: 'level', level: r.operand(exit.trail.level, 'exit') };
  const time = timeOf(script, r, session);
  const exitWhen = exit.when ? r.cond(exit.when, 'exit', 0) : null;
  const flat = session.kind === 'windows' && !time.some((t) => t.kind === 'clock' || t.kind === 'session_close');
  const series = [...r.series.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const body = {
    ir: IR_VERSION,
    market: script.market,
    timeframe: script.timeframe,
    tf_seconds: r.tf,
    tick: r.tick,
    side: script.side,
    session,
    flat_at_session_end: flat,
    series,
    entry,
    stop,
    breakeven,
    target,
    trail,
    time,
    exit_when: exitWhen,
    warm_up_bars: warmUpOf(series, r.tf, JSON.stringify([entry, stop, target, trail, exitWhen]).includes('"previous_bar"')),
  } satisfies Omit<DeciderIR, 'states' | 'transitions'>;
  return { ...body, ...machineOf(body) };
}
