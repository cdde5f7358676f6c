import { firstAtOrAfter, windowOf, type Bars } from '../bars.js';
import { expectedBars } from '../calendar.js';
import type { DeciderSeries } from '../decider/contract.js';
import type { Cond, DeciderIR, Operand } from '../decider/ir.js';
import { seriesOf } from '../decider/series.js';
import type { Readiness, Rehearsal } from './envelope.js';

/**
 * Which bars of a rehearsal's window the rule could decide on, and why the others could not: read from the very
 * series the stepper ran on, never estimated.
 *
 * - warm-up: a series an entry trigger reads has no value yet at the bar's close (an average still warming, a prior
 *   day not yet complete, an opening range still forming), or the bar is the first of all (a cross reads the bar before).
 * - session: the bar's close falls outside the rule's session windows (or after a clock exit closed them).
 * - gaps: bar slots of open market in the window for which the tape holds no bar (no trade printed, or none kept).
 */
export const IDLE = { DECIDES: 0, WARM_UP: 1, SESSION: 2 } as const;

/** The ids of the series an operand reads. */
function operandSeries(o: Operand, out: Set<string>): void {
  if (o.kind === 'point') {
    if (o.at.src === 'series') out.add(o.at.id);
  } else if (o.kind === 'zone') {
    if (o.lo.src === 'series') out.add(o.lo.id);
    if (o.hi.src === 'series') out.add(o.hi.id);
  }
}

/** The ids of the series a condition reads, added to out. */
export function condSeries(c: Cond | null, out: Set<string> = new Set()): Set<string> {
  if (c === null) return out;
  if ('args' in c) for (const a of c.args) condSeries(a, out);
  else if ('level' in c) operandSeries(c.level, out);
  else {
    operandSeries(c.left, out);
    operandSeries(c.right, out);
  }
  return out;
}

/** Per bar of [start, end): IDLE.DECIDES, IDLE.WARM_UP or IDLE.SESSION. */
export function idleOf(ir: DeciderIR, s: DeciderSeries, start: number, end: number): Uint8Array {
  const read = [...condSeries(ir.entry.long, condSeries(ir.entry.short))].sort().map((id) => s[id] as Float64Array);
  const gate = ir.session.kind === 'windows' ? (s[ir.session.gate] as Float64Array) : null;
  const out = new Uint8Array(end - start);
  for (let i = start; i < end; i++) {
    // The machine decides from bar 1 on: a cross reads the bar before.
    out[i - start] = i < 1 || anyUnset(read, i) ? IDLE.WARM_UP : gate !== null && gate[i] === 0 ? IDLE.SESSION : IDLE.DECIDES;
  }
  return out;
}

/** Whether any of the series has no value at bar i (a loop, not a closure a bar: this runs for every bar of a window). */
function anyUnset(read: readonly Float64Array[], i: number): boolean {
  for (let k = 0; k < read.length; k++) if (Number.isNaN(read[k]![i]!)) return true;
  return false;
}

/** The readiness of a window [start, end) of bars the stepper ran over with these series. */
export function readinessOf(ir: DeciderIR, bars: Bars, s: DeciderSeries, start: number, end: number): Readiness {
  const idle = idleOf(ir, s, start, end);
  const first = idle.indexOf(IDLE.DECIDES);
  let warmUp = 0;
  let session = 0;
  for (let k = 0; k < idle.length; k++) {
    if (idle[k] === IDLE.WARM_UP) warmUp++;
    else if (idle[k] === IDLE.SESSION) session++;
  }
  const expected = expectedBars(ir.market, ir.tf_seconds, bars.t[start]!, bars.t[end - 1]! + ir.tf_seconds);
  // Both are sorted: one walk along the two counts the expected slots the window holds a bar for.
  let held = 0;
  for (let e = 0, i = start; e < expected.length && i < end; ) {
    if (expected[e]! < bars.t[i]!) e++;
    else if (expected[e]! > bars.t[i]!) i++;
    else {
      held++;
      e++;
      i++;
    }
  }
  return { ready_at: first < 0 ? null : bars.t[start + first]!, idle: { warm_up: warmUp, session, gaps: expected.length - held } };
}

/**
 * The bars and series a rehearsal's stepper ran on, rebuilt from the bars it was given and its window: the stepper
 * started its series `window.warm_up_bars` bars before the window's first bar, so the same start gives the same
 * values (a recursive average depends on where it starts).
 */
export function rehearsedSeries(ir: DeciderIR, given: Bars, window: Rehearsal['window']): { bars: Bars; start: number; end: number; series: DeciderSeries } {
  const from = firstAtOrAfter(given.t, window.from);
  if (given.t[from] !== window.from || from < window.warm_up_bars || from + window.bars > given.length) {
    throw new RangeError("these are not the bars the rehearsal ran over: its window or the warm-up before it is not among them");
  }
  const bars = windowOf(given, from - window.warm_up_bars, from + window.bars);
  return { bars, start: window.warm_up_bars, end: window.warm_up_bars + window.bars, series: seriesOf(ir, bars) };
}

const hhmm = (minute: number): string => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** The rule's session in a trader's words: its windows and zone, and the clocks that close its entries ("always" when it has none). */
export function sessionWords(ir: Pick<DeciderIR, 'session'>): string {
  const s = ir.session;
  if (s.kind === 'always') return 'always';
  const until = s.until && s.until.length > 0 ? `, entries until ${s.until.map((c) => `${hhmm(c.minute)}${c.zone === s.zone ? '' : ` ${c.zone}`}`).join(' or ')}` : '';
  return `${s.windows.map((w) => `${hhmm(w.from)}-${hhmm(w.to)}`).join(', ')} ${s.zone}${until}`;
}
