import { MARKET_SPECS } from '../markets.js';
import { CONDITION_MEANINGS } from '../reader/vocabulary.js';
import type { ClockIR, Cond, DeciderIR, Distance, Operand, SeriesSpec, TargetDistance, TradingDay, Value } from './ir.js';

/**
 * The decider IR in plain words: what the forged code does, line by line, for a reader who does not read code (the
 * grader judging fidelity, a trader checking the forge). Deterministic: the same IR gives the same text. Conditions
 * are said in the vocabulary's own definitions (CONDITION_MEANINGS), so the words a trader used, the rendering and
 * the code share one meaning; the fills are the stepper's documented rules (engine/stepper/machine.ts).
 */

/** What a rule with session windows and no clock or close exit of its own does at a window's end. */
export const FLAT_AT_WINDOW_END = 'a trade still open when its session window ends is closed at the close of the bar that ends the window (flat at window end)';

type Ctx = 'entry' | 'trade';

const num = (x: number): string => JSON.stringify(x);
const hhmm = (minute: number): string => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
const dayStart = (day: TradingDay): string => (day === 'cme' ? '17:00 America/Chicago' : '00:00 UTC');
const FIELD = { o: 'open', h: 'high', l: 'low', c: 'close' } as const;
const ordinal = (n: number): string => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};

/** The clock exits that close a window's entries, in words ("" when none). */
const untilWords = (until: readonly ClockIR[] | undefined): string =>
  until && until.length > 0
    ? ` and before ${until.map((c) => `${hhmm(c.minute)} ${c.zone}`).join(' or ')} has come round since the window opened (the clock exit closes its entries)`
    : '';

class Words {
  private readonly specs: Map<string, SeriesSpec>;

  constructor(private readonly ir: DeciderIR) {
    this.specs = new Map(ir.series.map((s) => [s.id, s]));
  }

  private series(id: string): string {
    const s = this.specs.get(id);
    if (!s) return `the series ${id}`;
    switch (s.kind) {
      case 'ema':
        return `the ${s.params.n}-bar EMA of the closes`;
      case 'sma':
        return `the ${s.params.n}-bar SMA of the closes`;
      case 'rsi':
        return `RSI(${s.params.n}) of the closes`;
      case 'atr':
        return `ATR(${s.params.n})`;
      case 'vwap':
        return `the VWAP of the trading day (volume-weighted typical price since ${dayStart(s.params.day)})`;
      case 'highest':
        return `the highest high of the ${s.params.n} bars before`;
      case 'lowest':
        return `the lowest low of the ${s.params.n} bars before`;
      case 'prior_day':
        return `the prior trading day's ${s.params.field} (trading days from ${dayStart(s.params.day)})`;
      case 'opening_range':
        return (
          `the opening range ${s.params.field} (the ${s.params.field === 'high' ? 'highest high' : 'lowest low'} of the bars opening in the first ` +
          `${s.params.minutes} minutes from ${hhmm(s.params.open)} ${s.params.zone}${s.params.zone === 'UTC' ? '' : ' on weekdays'}, known from the close of its last bar)`
        );
      case 'session_gate':
      case 'session_end':
        return 'the session window';
      case 'next_clock':
        return `${hhmm(s.params.minute)} ${s.params.zone}`;
      case 'swing':
        return (
          `the most recent swing ${s.params.field} (the ${s.params.field} of a bar that the ${s.params.strength} bars before it do not reach ` +
          `and the ${s.params.strength} bars after it do not pass, known at the close of the last of them)`
        );
      case 'bollinger':
        return s.params.band === 'middle'
          ? `the middle Bollinger band (the ${s.params.n}-bar SMA of the closes)`
          : `the ${s.params.band} Bollinger band (the ${s.params.n}-bar SMA of the closes ${s.params.band === 'upper' ? 'plus' : 'less'} ${num(s.params.k)} population standard deviations of them)`;
    }
  }

  private value(v: Value, ctx: Ctx): string {
    switch (v.src) {
      case 'bar':
        return `the bar's ${FIELD[v.field]}`;
      case 'series':
        return this.series(v.id);
      case 'constant':
        return num(v.value);
      case 'signal_bar':
        return ctx === 'entry' ? `this bar's ${FIELD[v.field]}` : `the signal bar's ${FIELD[v.field]}`;
      case 'previous_bar':
        return `the ${FIELD[v.field]} of the bar before`;
    }
  }

  private marks(shape: 'level' | 'zone' | 'any'): string {
    return `one of the trader's ${shape === 'any' ? '' : `${shape} `}marks`;
  }

  /** An operand as one thing, and at its top and bottom edge (the same words for a single price). */
  private operand(o: Operand, ctx: Ctx): { whole: string; top: string; bottom: string } {
    if (o.kind === 'point') {
      const w = this.value(o.at, ctx);
      return { whole: w, top: w, bottom: w };
    }
    if (o.kind === 'zone') {
      const top = this.value(o.hi, ctx);
      const bottom = this.value(o.lo, ctx);
      return { whole: `the zone from ${bottom} to ${top}`, top, bottom };
    }
    const whole = this.marks(o.shape);
    return o.shape === 'level' ? { whole, top: whole, bottom: whole } : { whole, top: `the top of ${whole}`, bottom: `the bottom of ${whole}` };
  }

  cond(c: Cond, ctx: Ctx): string {
    if ('args' in c) return `(${c.args.map((a) => this.cond(a, ctx)).join(c.op === 'and' ? ' and ' : ' or ')})`;
    const fill = (template: string, slots: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, k: string) => slots[k] ?? k);
    if ('level' in c) {
      const level = this.operand(c.level, ctx);
      return fill(CONDITION_MEANINGS[c.op], { level: level.whole, top: level.top, bottom: level.bottom });
    }
    const left = this.operand(c.left, ctx);
    const right = this.operand(c.right, ctx);
    // A zone is above another thing by its bottom and below it by its top, as the code compares them.
    const [a, b] =
      c.op === 'above' || c.op === 'crosses_above'
        ? [left.bottom, right.top]
        : c.op === 'below' || c.op === 'crosses_below'
          ? [left.top, right.bottom]
          : [left.whole, right.whole];
    return fill(CONDITION_MEANINGS[c.op], { a, b });
  }

  /** A distance in price, `of` naming what a fraction is of and `when` when an ATR is read. */
  distance(d: Distance | TargetDistance, of: string, when: string): string {
    switch (d.unit) {
      case 'price': {
        const ticks = d.value / this.ir.tick;
        const whole = Math.round(ticks);
        if (Math.abs(ticks - whole) > 1e-9) return `${num(d.value)} points`;
        return `${num(d.value)} points (${whole} tick${whole === 1 ? '' : 's'} of ${num(this.ir.tick)})`;
      }
      case 'fraction':
        return `${num(Math.round(d.value * 1e10) / 1e8)}% of ${of}`;
      case 'atr':
        return `${num(d.mult)} x ${this.series(d.series)} at ${when}`;
      case 'range':
        return `${num(d.mult)} x the height of the range from ${this.series(d.lo)} to ${this.series(d.hi)} at ${when}`;
      case 'r':
        return `${num(d.value)}R (${num(d.value)} times the distance from the entry fill to the initial stop)`;
    }
  }

  /** A level a trade reads. Marks: the nearest one on the losing side of `ref` (protect) or beyond it (target). */
  private level(o: Operand, ref: string, role: 'protect' | 'target'): string {
    if (o.kind === 'mark') {
      const where = role === 'protect' ? `below ${ref} for a long, above it for a short` : `above ${ref} for a long, below it for a short`;
      return `the nearest of ${this.marks(o.shape).replace(/^one of /, '')} ${where} (a mark's bottom edge for a long, its top edge for a short)`;
    }
    if (o.kind === 'zone') return `${this.value(o.lo, 'trade')} for a long, ${this.value(o.hi, 'trade')} for a short`;
    return this.value(o.at, 'trade');
  }

  private stop(): string {
    const s = this.ir.stop;
    if (s.kind === 'distance') {
      return `Stop: ${this.distance(s.distance, 'the entry fill price', "the signal bar's close")} from the entry fill, below a long and above a short, placed when the entry fills.`;
    }
    const level = `${this.level(s.level, 'the entry fill', 'protect')}, as it stood at the signal bar's close`;
    if (s.where === 'at') return `Stop: at ${level}.`;
    const where = s.where === 'beyond' ? 'beyond (below for a long, above for a short)' : s.where;
    return `Stop: ${this.distance(s.offset, 'the level', "the signal bar's close")} ${where} ${level}.`;
  }

  lines(): string[] {
    const ir = this.ir;
    const out: string[] = [];
    const sides = ir.side === 'both' ? 'long and short' : `${ir.side} only`;
    out.push(`What the forged code does (${ir.ir}): it trades ${ir.market} on ${ir.timeframe} bars, ${sides}, one trade at a time.`);
    out.push(
      ir.session.kind === 'always'
        ? 'When: at any time; every decision is made at a bar\'s close.'
        : `When: it may enter only when a bar's close falls inside ${ir.session.windows.map((w) => `${hhmm(w.from)}-${hhmm(w.to)}`).join(' or ')} ${ir.session.zone} (a window is [from, to); one whose from is later than its to runs through midnight)${untilWords(ir.session.until)}; every decision is made at a bar's close.`,
    );
    for (const side of ['long', 'short'] as const) {
      const c = ir.entry[side];
      if (c) out.push(`Enter ${side} when ${this.cond(c, 'entry')}; the entry fills at the next bar's open.`);
    }
    if (ir.entry.long && ir.entry.short) out.push('When the long and the short trigger hold on the same bar, neither is taken.');
    out.push(this.stop());
    out.push('An entry whose stop would not lie beyond its fill (on the losing side) is skipped.');
    if (ir.breakeven) {
      out.push(
        `Breakeven: once the best price since the entry (the highest high long, the lowest low short) reaches ${this.distance(ir.breakeven, 'the entry fill price', 'the signal bar\'s close')} beyond the entry fill, the stop moves to the entry at that bar's close.`,
      );
    }
    const t = ir.target;
    if (t?.kind === 'distance') out.push(`Target: ${this.distance(t.distance, 'the entry fill price', "the signal bar's close")} beyond the entry fill.`);
    if (t?.kind === 'level') out.push(`Target: at ${this.level(t.level, 'the entry', 'target')}, read again at each bar's close and counted only while it lies beyond the entry.`);
    const tr = ir.trail;
    if (tr?.kind === 'distance') {
      out.push(`Trailing stop: ${this.distance(tr.distance, 'the best price', "each bar's close")} behind the best price since the entry, moved at each bar's close, only ever tightening the stop.`);
    }
    if (tr?.kind === 'level') out.push(`Trailing stop: at ${this.level(tr.level, "the bar's close", 'protect')} as it stands at each bar's close, only ever tightening the stop.`);
    for (const x of ir.time) {
      if (x.kind === 'bars') out.push(`Time exit: at the close of the ${ordinal(x.n)} bar of the trade (the entry bar is the first).`);
      if (x.kind === 'seconds') out.push(`Time exit: at the close of the first bar that closes ${num(x.n / 60)} minutes or more after the entry fill.`);
      if (x.kind === 'clock') out.push(`Clock exit: at the close of the bar that reaches the first ${this.series(x.series)} after the entry.`);
      if (x.kind === 'session_close') {
        out.push(
          x.series === (ir.session.kind === 'windows' ? ir.session.end : null)
            ? 'Close exit: at the close of the bar that ends the session window.'
            : `Close exit: at the close of the bar that reaches the first ${this.series(x.series)} after the entry (${MARKET_SPECS[ir.market].kind === 'cme' ? 'the cash session\'s close' : 'the end of the UTC day'}).`,
        );
      }
    }
    if (ir.exit_when) out.push(`Exit rule: at the next bar's open after a bar where ${this.cond(ir.exit_when, 'trade')}.`);
    if (ir.flat_at_session_end) out.push(`Session end: ${FLAT_AT_WINDOW_END}; the rule names no clock or close exit of its own.`);
    out.push(
      "Fills (the stepper's): entries and rule exits at the next bar's open; a stop or target inside a bar at its price, the stop first when both are in the bar's range; " +
        'an open at or beyond the stop or the target at that open; time, clock and session exits at the bar\'s close; a trade still open when the bars run out at the last close.',
    );
    return out;
  }
}

/** The decider IR in plain words, one statement a line. */
export const inWords = (ir: DeciderIR): string => `${new Words(ir).lines().join('\n')}\n`;
