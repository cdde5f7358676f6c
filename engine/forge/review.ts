import { z } from 'zod';
import { canonicalJson } from '../decider/canonical.js';
import { freshState, STATES, type StateName } from '../decider/contract.js';
import type { ClockIR, Cond, DeciderIR, Distance, Operand, SeriesSpec, TargetDistance, Value } from '../decider/ir.js';
import { clockClosesEntries, clockClosingWords, outlivingEntry, outlivingWords } from '../decider/outlive.js';
import { FLAT_AT_WINDOW_END } from '../decider/plain.js';
import { MARKET_SPECS, TIMEFRAME_SECONDS } from '../markets.js';
import { closing, lineOf, linesOf, readCode, type CodeModel } from './code.js';

/**
 * The forge's self-review: nine named classes of fault, each passed or flagged, every finding naming the line of the
 * generated code it is about. Each class is an analysis of the decider IR and of the code's text (its array reads,
 * assignments, calls and expressions), so a hand-altered IR or code is judged on what it says, not on where it came
 * from. What each class checks:
 *
 * look-ahead        Every bar or series read is at the bar being decided (i), a bar before it (i - n), the signal
 *                   bar (k, st.signal), a mark's index (m, marks only), or the fill bar f for a clock series only
 *                   (its open time is known at its open; its high, low and close are not); no index adds. Helpers
 *                   are called at i or k. Entries fill at the next open: flat only arms, armed fills, a rule exit
 *                   waits for the next open; only fill puts the machine in a position or sets the entry price.
 * repainting        Every series has a causal definition whose value at a bar is final at its close (closes up to
 *                   the bar, the n bars before it, the last complete day, an opening range only once its last bar
 *                   has closed, the clock), read from the inputs that definition names; an opening range is whole
 *                   bars; the prior day is counted on the market's own trading day. The code never writes into the
 *                   series, and a signal-bar level in a trade is read at the signal bar, not at a moving one.
 * missing stop      The IR places a stop on the losing side (a positive distance, or a level), every position has
 *                   its stop exit, and an armed entry whose stop is not beyond the fill goes flat. In the code, fill
 *                   refuses a stop that is not beyond the fill (a test NaN cannot pass), sets st.stop before it
 *                   returns true, and every later move of the stop only tightens it.
 * unreachable state Every state the IR lists is reached from flat by its transitions and leads back to flat; the
 *                   transitions name only listed states; each trigger side has its arming move; the code enters
 *                   every listed state, and enters no decided state (armed, exiting, closing) the IR lacks.
 * indicator warm-up warm_up_bars covers every series the code reads, at the furthest bar back it reads it:
 *                   recursive smoothers (EMA, RSI, ATR) three lengths, an SMA its length less one, the n bars
 *                   before the current one n, a prior day two days of bars, VWAP and an opening range a day; the
 *                   code reads no series the IR does not list, and no trigger tests a series with a negation or an
 *                   equality (those hold while a warming series reads NaN).
 * same-bar stop     Which of stop and target fills first inside one bar is the stepper's (the stop first); the
 * and target order  code leaves it there: it never ends a trade at the target itself nor decides on st.target,
 *                   puts the target and breakeven trigger beyond the fill and the stop on the other side (a level
 *                   stop on the side the IR says), and a level target only while it lies beyond the entry.
 * session leak      With session windows: entries are gated by the session gate before any arm, the gate and end
 *                   series are the session's windows, and a trade opened in a window is closed at its end
 *                   (flat_at_session_end, scheduled in fill and met in decide) unless the rule's own clock or
 *                   close exit governs. Being flat at a window's end the words did not ask for is no fault, but it
 *                   is said: the review's notes name it with its line.
 * unit mismatch     The tick is the market's and INV_TICK its inverse; tf_seconds is the timeframe's and TF says
 *                   so; comparisons set price against price, an oscillator (RSI) against a number in 0..100 or
 *                   another oscillator, a range (ATR) against a number or a range; a break, touch, stop, target or
 *                   trail level is a price; an ATR distance names an ATR series the code reads; R is never a stop
 *                   or trail (it is measured from the stop) and a target in R has the risk set in fill; a stop or
 *                   trail fraction lies in (0, 1); time exits are whole minutes and the code's bars and seconds
 *                   are the IR's.
 * unbounded state   The state is the contract's fixed fields and nothing else: no module-level variables, no
 *                   arrays, maps or objects made, nothing pushed, no counters (++, +=) on the state, loops only
 *                   over the marks (for ... < s.<array>.length); fill resets every per-trade field and arm every
 *                   arming one, so nothing carries from one trade to the next.
 */

export const REVIEW_CLASSES = [
  'look-ahead',
  'repainting',
  'missing stop',
  'unreachable state',
  'indicator warm-up',
  'same-bar stop and target order',
  'session leak',
  'unit mismatch',
  'unbounded state',
] as const;
export type ReviewClassName = (typeof REVIEW_CLASSES)[number];

export interface Finding {
  /** 1-based line of the code. */
  line: number;
  message: string;
}

export interface ReviewClass {
  name: ReviewClassName;
  status: 'passed' | 'flagged';
  findings: Finding[];
}

export interface Review {
  classes: ReviewClass[];
  /**
   * What the code does that the rule leaves unsaid, with its line: no fault (nothing is flagged for it), said so
   * the trader sees it. Today: a session window with no clock or close exit is flat at the window's end.
   */
  notes: Finding[];
}

const FindingSchema = z.strictObject({ line: z.number().int().min(1), message: z.string().min(1) });

export const ReviewSchema: z.ZodType<Review> = z.strictObject({
  classes: z
    .array(
      z.strictObject({
        name: z.enum(REVIEW_CLASSES),
        status: z.enum(['passed', 'flagged']),
        findings: z.array(FindingSchema),
      }),
    )
    .length(REVIEW_CLASSES.length),
  notes: z.array(FindingSchema),
});

// ---- reading the IR ---------------------------------------------------------------------------------------------

type Leaf = Exclude<Cond, { args: Cond[] }>;
const leaves = (c: Cond): Leaf[] => ('args' in c ? c.args.flatMap(leaves) : [c]);
const operandsOf = (c: Leaf): Operand[] => ('level' in c ? [c.level] : [c.left, c.right]);
const valuesOf = (o: Operand): Value[] => (o.kind === 'point' ? [o.at] : o.kind === 'zone' ? [o.lo, o.hi] : []);

/** The IR's conditions with the function of the code that decides each. */
const conditionsOf = (ir: DeciderIR): { fn: string; cond: Cond }[] => [
  ...(ir.entry.long ? [{ fn: 'enterLong', cond: ir.entry.long }] : []),
  ...(ir.entry.short ? [{ fn: 'enterShort', cond: ir.entry.short }] : []),
  ...(ir.exit_when ? [{ fn: 'exitRule', cond: ir.exit_when }] : []),
];

/** The level operands a trade reads (stop, target, trail), each with the code construct that prices it. */
const levelsOf = (ir: DeciderIR): { what: string; level: Operand; at: RegExp }[] => [
  ...(ir.stop?.kind === 'level' ? [{ what: 'stop', level: ir.stop.level, at: /const (stop|base) = / }] : []),
  ...(ir.target?.kind === 'level' ? [{ what: 'target', level: ir.target.level, at: /const x = |st\.target = / }] : []),
  ...(ir.trail?.kind === 'level' ? [{ what: 'trail', level: ir.trail.level, at: /const trail = / }] : []),
];

const HELD: StateName[] = ['in_long', 'in_short'];
const MARK_ARRAYS = new Set(['markLo', 'markHi', 'markShape']);
const BAR_ARRAYS = new Set(['t', 'o', 'h', 'l', 'c', 'v']);
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// ---- reading the code -------------------------------------------------------------------------------------------

interface Assignment {
  line: number;
  fn: string | null;
  /** The name path assigned to, as written ("st.stop"). */
  target: string;
  /** The right-hand side's tokens joined by single spaces. */
  rhs: string;
  /** The operator: =, +=, ++, ... */
  op: string;
}

/** Every assignment to a name path ("st.phase", "st.*" for any state field), with its right-hand side. */
function assignmentsTo(m: CodeModel, path: string): Assignment[] {
  const parts = path.split('.');
  const out: Assignment[] = [];
  const toks = m.tokens;
  for (let k = 0; k + 2 * parts.length - 1 < toks.length; k++) {
    if (toks[k - 1]?.text === '.') continue;
    const names: string[] = [];
    let j = k;
    let ok = true;
    for (let p = 0; p < parts.length; p++) {
      const t = toks[j];
      if (!t || t.kind !== 'name' || (parts[p] !== '*' && t.text !== parts[p])) ok = false;
      else names.push(t.text);
      j++;
      if (p < parts.length - 1) {
        if (toks[j]?.text !== '.') ok = false;
        j++;
      }
      if (!ok) break;
    }
    const op = toks[j]?.text ?? '';
    if (!ok || !['=', '+=', '-=', '*=', '/=', '++', '--'].includes(op)) continue;
    let end = j + 1;
    let depth = 0;
    while (end < toks.length) {
      const t = toks[end]!.text;
      if ('([{'.includes(t)) depth++;
      else if (')]}'.includes(t)) {
        if (depth === 0) break;
        depth--;
      } else if ((t === ';' || t === ',') && depth === 0) break;
      end++;
    }
    const rhs = toks
      .slice(j + 1, end)
      .map((t) => t.text)
      .join(' ');
    const fn = m.functions.find((f) => k >= f.from && k < f.to)?.name ?? null;
    out.push({ line: toks[k]!.line, fn, rhs, op, target: names.join('.') });
  }
  return out;
}

/** Calls of a function: the line and the first argument's tokens. */
function callsOf(m: CodeModel, name: string): { line: number; fn: string | null; first: string }[] {
  const out: { line: number; fn: string | null; first: string }[] = [];
  const toks = m.tokens;
  for (let k = 0; k + 1 < toks.length; k++) {
    if (toks[k]!.text !== name || toks[k + 1]!.text !== '(' || toks[k - 1]?.text === 'function' || toks[k - 1]?.text === '.') continue;
    const end = closing(toks, k + 1);
    const args = toks.slice(k + 2, end);
    const comma = args.findIndex((t) => t.text === ',');
    const first = (comma === -1 ? args : args.slice(0, comma)).map((t) => t.text).join(' ');
    out.push({ line: toks[k]!.line, fn: m.functions.find((f) => k >= f.from && k < f.to)?.name ?? null, first });
  }
  return out;
}

/** How many bars back an index reaches from its base: "i - 1 - 1" is 2; null when it is not base minus numbers. */
function lagOf(index: string, base: string): number | null {
  const re = new RegExp(`^${escape(base)}((?: - \\d+)*)$`);
  const m = re.exec(index);
  if (!m) return null;
  return m[1]!.split(' - ').slice(1).reduce((a, b) => a + Number(b), 0);
}

interface Ctx {
  ir: DeciderIR;
  m: CodeModel;
  specs: Map<string, SeriesSpec>;
  /** A line to name when nothing more precise is found: the first of the candidates that exists. */
  at: (...candidates: (number | null | undefined)[]) => number;
  fnLine: (name: string) => number | null;
}

type Check = (c: Ctx) => Finding[];

// ---- the nine classes -------------------------------------------------------------------------------------------

const lookAhead: Check = ({ ir, m, specs, at, fnLine }) => {
  const out: Finding[] = [];
  const clockOnly = (array: string) => array === 't' || specs.get(array)?.source === 'time';
  for (const r of m.reads) {
    if (MARK_ARRAYS.has(r.array)) {
      if (r.index !== 'm') out.push({ line: r.line, message: `${r.array} is read at ${r.index}: the marks are read by a mark's index` });
      continue;
    }
    if (r.index.includes('+')) {
      out.push({ line: r.line, message: `${r.array} is read at ${r.index}: a bar after the one being decided` });
    } else if (r.index === 'f') {
      if (!clockOnly(r.array)) {
        out.push({ line: r.line, message: `${r.array} is read at the fill bar f, whose prices are not known at its open` });
      }
    } else if (r.index === 'm') {
      out.push({ line: r.line, message: `${r.array} is read at a mark's index m` });
    } else if (!['i', 'k', 'st . signal', 'f'].some((b) => lagOf(r.index, b) !== null)) {
      out.push({ line: r.line, message: `${r.array} is read at ${r.index}, which cannot be shown to be at or before the bar being decided` });
    }
  }
  // Helpers that take the bar as their first parameter, i.
  for (const f of m.functions.filter((x) => new RegExp(`function ${escape(x.name)}\\(i\\b`).test(m.lines[x.line - 1]!))) {
    for (const call of callsOf(m, f.name)) {
      if (call.first !== 'i' && call.first !== 'k' && call.first !== 'st . signal') {
        out.push({ line: call.line, message: `${f.name} is called at ${call.first}, not at the bar being decided or the signal bar` });
      }
    }
  }
  for (const t of ir.transitions) {
    if (t.from === 'flat' && t.to !== 'armed') {
      out.push({ line: at(fnLine('arm')), message: `flat goes to ${t.to} on ${t.on}: an entry must wait, armed, for the next bar's open` });
    }
    if (t.from === 'exiting' && t.on !== 'next_open') {
      out.push({ line: at(fnLine('decide')), message: `exiting leaves on ${t.on}: a rule exit decided at a close fills at the next open` });
    }
  }
  for (const side of ['long', 'short'] as const) {
    const held = side === 'long' ? 'in_long' : 'in_short';
    if (ir.entry[side] && !ir.transitions.some((t) => t.from === 'armed' && t.to === held && t.on === 'fill')) {
      out.push({ line: at(fnLine('fill')), message: `no armed to ${held} move on fill: the ${side} entry does not fill at the next open` });
    }
  }
  for (const a of assignmentsTo(m, 'st.phase')) {
    if (/\bIN_(LONG|SHORT)\b/.test(a.rhs) && a.fn !== 'fill') {
      out.push({ line: a.line, message: `${a.fn ?? 'module code'} enters a position: only fill, at the next open, may` });
    }
    if (/\bARMED\b/.test(a.rhs) && a.fn !== 'arm') out.push({ line: a.line, message: `${a.fn ?? 'module code'} arms an entry: only arm may` });
  }
  for (const a of assignmentsTo(m, 'st.entry')) {
    if (a.fn !== 'fill') out.push({ line: a.line, message: `${a.fn ?? 'module code'} sets the entry price: only fill, at the next open, may` });
  }
  return out;
};

/**
 * The series kinds with a causal definition (each value final at its bar's close), and the inputs each is made of;
 * a prior day and an opening range read their own field.
 */
const SOURCE: Record<SeriesSpec['kind'], string | null> = {
  ema: 'close',
  sma: 'close',
  rsi: 'close',
  atr: 'high,low,close',
  vwap: 'hlc3,volume',
  highest: 'high',
  lowest: 'low',
  prior_day: null,
  opening_range: null,
  session_gate: 'time',
  session_end: 'time',
  next_clock: 'time',
  swing: null,
  bollinger: 'close',
};
const sourceOf = (s: SeriesSpec): string => (s.kind === 'prior_day' || s.kind === 'opening_range' || s.kind === 'swing' ? s.params.field : SOURCE[s.kind]!);

const firstRead = (m: CodeModel, array: string): number | null =>
  m.reads.find((r) => r.array === array)?.line ?? lineOf(m, new RegExp(`\\b${escape(array)}\\b`));

const repainting: Check = ({ ir, m, at }) => {
  const out: Finding[] = [];
  const day = MARKET_SPECS[ir.market]?.kind === 'cme' ? 'cme' : 'utc';
  for (const s of ir.series) {
    const line = at(firstRead(m, s.id));
    if (!Object.hasOwn(SOURCE, s.kind)) {
      out.push({ line, message: `${s.id} is a ${String(s.kind)}, which has no causal definition: its past values may change` });
      continue;
    }
    if (s.source !== sourceOf(s)) out.push({ line, message: `${s.id} reads ${s.source}, not what a ${s.kind} is made of (${sourceOf(s)})` });
    if ('n' in s.params && !(Number.isInteger(s.params.n) && s.params.n >= 1)) {
      out.push({ line, message: `${s.id} has a length of ${s.params.n}, not a whole number of bars` });
    }
    if (s.kind === 'opening_range') {
      const seconds = s.params.minutes * 60;
      if (seconds < ir.tf_seconds || seconds % ir.tf_seconds !== 0) {
        out.push({ line, message: `${s.id}: ${s.params.minutes} minutes are not whole ${ir.timeframe} bars, so the range would close inside a bar` });
      }
    }
    if (s.kind === 'prior_day' && s.params.day !== day) {
      out.push({ line, message: `${s.id} counts days on the ${s.params.day} clock, not ${ir.market}'s trading day: a "prior" day may not have closed` });
    }
  }
  const declared = new Set(ir.series.map((s) => s.id));
  for (const r of m.reads) {
    if (!declared.has(r.array) && !BAR_ARRAYS.has(r.array) && !MARK_ARRAYS.has(r.array)) {
      out.push({ line: r.line, message: `${r.array} is read but the IR does not define it: nothing shows its values stay put` });
    }
  }
  for (let k = 0; k + 4 < m.tokens.length; k++) {
    const [s, dot, name] = [m.tokens[k]!, m.tokens[k + 1]!, m.tokens[k + 2]!];
    if (s.text !== 's' || dot.text !== '.' || name.kind !== 'name' || m.tokens[k - 1]?.text === '.') continue;
    let j = k + 3;
    if (m.tokens[j]?.text === '[') j = closing(m.tokens, j) + 1;
    if (['=', '+=', '-=', '*=', '/=', '++', '--'].includes(m.tokens[j]?.text ?? '')) {
      out.push({ line: s.line, message: `the code writes into the series ${name.text}: a value already read may change` });
    }
  }
  const tradeSignal = [
    ...(ir.exit_when ? leaves(ir.exit_when).flatMap(operandsOf) : []),
    ...levelsOf(ir).map((l) => l.level),
  ].flatMap(valuesOf);
  for (const v of tradeSignal) {
    if (v.src !== 'signal_bar') continue;
    if (!m.reads.some((r) => r.array === v.field && (r.index === 'st . signal' || r.index === 'k'))) {
      out.push({ line: at(lineOf(m, /function (exitRule|fill)\b/)), message: `the signal bar's ${v.field} is never read at the signal bar: the level would move with each bar` });
    }
  }
  return out;
};

/** A distance's size: the multiple of an ATR, or the value in its unit. */
const size = (d: Distance | TargetDistance): number => ('mult' in d ? d.mult : d.value);
const positive = (d: Distance | TargetDistance): boolean => size(d) > 0;

const missingStop: Check = ({ ir, m, at, fnLine }) => {
  const out: Finding[] = [];
  const fill = m.functions.find((f) => f.name === 'fill');
  const fillLine = at(fnLine('fill'));
  const stopLine = at(lineOf(m, /const stop = /, 'fill'), fillLine);
  if (!ir.stop) out.push({ line: stopLine, message: 'the IR places no stop' });
  else if (ir.stop.kind === 'distance' && !positive(ir.stop.distance)) {
    out.push({ line: stopLine, message: 'the stop distance is not positive: the stop is not on the losing side of the fill' });
  } else if (ir.stop.kind === 'level' && !(size(ir.stop.offset) >= 0)) {
    out.push({ line: stopLine, message: 'the stop is offset towards the fill, not beyond its level' });
  }
  for (const held of ir.states.filter((s) => HELD.includes(s))) {
    if (!ir.transitions.some((t) => t.from === held && t.to === 'flat' && t.on === 'stop')) {
      out.push({ line: fillLine, message: `${held} has no stop exit` });
    }
  }
  if (ir.states.includes('armed') && !ir.transitions.some((t) => t.from === 'armed' && t.to === 'flat' && t.on === 'stop_not_beyond_fill')) {
    out.push({ line: fillLine, message: 'an armed entry whose stop is not beyond the fill has no way back to flat' });
  }
  if (!fill) {
    out.push({ line: 1, message: 'the code has no fill function: no entry places a stop' });
    return out;
  }
  const guard = lineOf(m, /if \(!\(d \* \(price - stop\) > 0\)\) \{/, 'fill');
  const refuses = guard !== null && /st\.phase = FLAT;/.test(m.lines[guard]!) && /return false;/.test(m.lines[guard + 1]!);
  if (!refuses) out.push({ line: stopLine, message: 'fill does not refuse (flat, false) a stop that is not beyond the fill, NaN included' });
  const set = assignmentsTo(m, 'st.stop').filter((a) => a.fn === 'fill');
  const entered = assignmentsTo(m, 'st.phase').find((a) => a.fn === 'fill' && /\bIN_(LONG|SHORT)\b/.test(a.rhs));
  if (!set.some((a) => a.rhs === 'stop')) out.push({ line: fillLine, message: 'fill never sets st.stop to the stop it checked' });
  if (guard !== null && entered && entered.line < guard) out.push({ line: entered.line, message: 'fill enters the position before it checks the stop' });
  for (let n = fill.line; n <= fill.end; n++) {
    if (!/\breturn true\b/.test(m.lines[n - 1]!)) continue;
    if (!set.some((a) => a.rhs === 'stop' && a.line < n)) out.push({ line: n, message: 'fill answers true before it sets the stop' });
  }
  for (const a of assignmentsTo(m, 'st.stop')) {
    if (a.fn === 'fill') continue;
    const test = new RegExp(`if \\(d \\* \\(${escape(a.rhs.replace(/ \. /g, '.'))} - st\\.stop\\) > 0\\)`);
    const guarded = a.op === '=' && ['st . entry', 'trail'].includes(a.rhs) && a.line > 1 && test.test(m.lines[a.line - 2]!);
    if (!guarded) out.push({ line: a.line, message: `the stop is moved to ${a.rhs || a.op} without a test that it only tightens: it could be loosened or lost` });
  }
  return out;
};

const unreachableState: Check = ({ ir, m, at, fnLine }) => {
  const out: Finding[] = [];
  const listed = new Set<string>(ir.states);
  const constLine = (s: string) => at(lineOf(m, new RegExp(`^const ${s.toUpperCase()} = `)), fnLine('decide'));
  for (const s of ir.states) if (!(STATES as readonly string[]).includes(s)) out.push({ line: constLine(s), message: `${s} is not a state of the machine` });
  for (const t of ir.transitions) {
    for (const end of [t.from, t.to]) {
      if (!listed.has(end)) out.push({ line: constLine(end), message: `the move ${t.from} -> ${t.to} on ${t.on} names ${end}, which the IR does not list` });
    }
  }
  const reach = (from: string, edges: [string, string][]) => {
    const seen = new Set([from]);
    const queue = [from];
    while (queue.length > 0) {
      const x = queue.shift()!;
      for (const [a, b] of edges) {
        if (a !== x || seen.has(b)) continue;
        seen.add(b);
        queue.push(b);
      }
    }
    return seen;
  };
  const edges = ir.transitions.map((t) => [t.from, t.to] as [string, string]);
  const forward = reach('flat', edges);
  const back = reach('flat', edges.map(([a, b]) => [b, a]));
  if (!listed.has('flat')) out.push({ line: at(fnLine('decide')), message: 'the IR does not list flat, where every rule starts' });
  for (const s of ir.states) {
    if (!forward.has(s)) out.push({ line: constLine(s), message: `${s} cannot be reached from flat` });
    else if (!back.has(s)) out.push({ line: constLine(s), message: `${s} never leads back to flat` });
  }
  for (const side of ['long', 'short'] as const) {
    if (ir.entry[side] && !ir.transitions.some((t) => t.from === 'flat' && t.on === `${side}_trigger`)) {
      out.push({ line: at(lineOf(m, new RegExp(`function enter${side === 'long' ? 'Long' : 'Short'}\\b`)), fnLine('decide')), message: `the ${side} trigger has no move out of flat` });
    }
  }
  const entered = new Set(assignmentsTo(m, 'st.phase').flatMap((a) => a.rhs.match(/\b[A-Z_]+\b/g) ?? []));
  for (const s of ir.states) {
    if (s !== 'flat' && !entered.has(s.toUpperCase())) out.push({ line: constLine(s), message: `the code never enters ${s}` });
  }
  for (const s of ['armed', 'exiting', 'closing'] as const) {
    if (entered.has(s.toUpperCase()) && !listed.has(s)) {
      const line = assignmentsTo(m, 'st.phase').find((a) => new RegExp(`\\b${s.toUpperCase()}\\b`).test(a.rhs))!.line;
      out.push({ line, message: `the code enters ${s}, which the IR's machine does not have` });
    }
  }
  return out;
};

/** Bars before a series' value at a bar can be trusted (see the class notes above); day-anchored ones in days. */
function warmOf(s: SeriesSpec, tf: number): { bars: number; days: boolean } {
  const days = (n: number) => ({ bars: Math.ceil((n * 86_400) / tf), days: true });
  switch (s.kind) {
    case 'ema':
    case 'rsi':
    case 'atr':
      return { bars: 3 * s.params.n, days: false };
    case 'sma':
    case 'bollinger':
      return { bars: s.params.n - 1, days: false };
    case 'swing':
      // a swing is known once the bars on either side of it have closed
      return { bars: 2 * s.params.strength, days: false };
    case 'highest':
    case 'lowest':
      return { bars: s.params.n, days: false };
    case 'prior_day':
      return days(2);
    case 'vwap':
    case 'opening_range':
      return days(1);
    default:
      return { bars: 0, days: false };
  }
}

const warmUp: Check = ({ ir, m, specs, at }) => {
  const out: Finding[] = [];
  const w = ir.warm_up_bars;
  if (!(Number.isInteger(w) && w >= 0)) out.push({ line: at(lineOf(m, /^export function decide\b/)), message: `warm_up_bars is ${w}, not a count of bars` });
  const lag = new Map<string, { lag: number; line: number }>();
  for (const r of m.reads) {
    const back = lagOf(r.index, 'i');
    if (back === null) continue;
    const had = lag.get(r.array);
    if (!had || back > had.lag) lag.set(r.array, { lag: back, line: r.line });
  }
  for (const [array, { lag: back, line }] of lag) {
    if (MARK_ARRAYS.has(array)) continue;
    if (BAR_ARRAYS.has(array)) {
      if (back > w) out.push({ line, message: `${array} is read ${back} bars back; warm_up_bars is ${w}` });
      continue;
    }
    const spec = specs.get(array);
    if (!spec) {
      out.push({ line, message: `${array} is read but the IR does not list it, so warm_up_bars cannot cover it` });
      continue;
    }
    const warm = warmOf(spec, ir.tf_seconds);
    // A day-anchored series changes only at a day's start: a bar's lag does not move it.
    const need = warm.days ? warm.bars : warm.bars + back;
    if (w < need) out.push({ line, message: `${array} needs ${need} bars of history${back ? ` (read ${back} back)` : ''}; warm_up_bars is ${w}` });
  }
  for (const s of ir.series) {
    const need = warmOf(s, ir.tf_seconds).bars;
    if (!lag.has(s.id) && w < need) out.push({ line: at(firstRead(m, s.id)), message: `${s.id} needs ${need} bars of history; warm_up_bars is ${w}` });
  }
  for (const f of m.functions.filter((x) => x.name === 'enterLong' || x.name === 'enterShort')) {
    const tests = new Set(
      m.tokens
        .slice(f.from, f.to)
        .filter((t, k, body) => ['===', '!==', '==', '!='].includes(t.text) || (t.text === '!' && body[k + 1]?.text === '('))
        .map((t) => t.line),
    );
    for (const line of tests) {
      const series = m.reads.filter((r) => r.line === line && specs.has(r.array)).map((r) => r.array);
      if (series.length > 0) {
        out.push({ line, message: `${f.name} tests ${[...new Set(series)].join(', ')} with a negation or an equality, which holds while a series still reads NaN` });
      }
    }
  }
  return out;
};

const sameBarOrder: Check = ({ ir, m, at, fnLine }) => {
  const out: Finding[] = [];
  for (const n of linesOf(m, /\bWHY_TARGET\b/)) {
    if (!/^const /.test(m.lines[n - 1]!)) out.push({ line: n, message: 'the code ends a trade at its target itself, ahead of the stepper, which checks the stop first' });
  }
  const decide = m.functions.find((f) => f.name === 'decide');
  if (decide) {
    for (let n = decide.line; n <= decide.end; n++) {
      if (/\bif \(.*\bst\.target\b/.test(m.lines[n - 1]!)) out.push({ line: n, message: 'decide acts on the target inside the bar, where the stepper settles the stop first' });
    }
  }
  const set = (field: string) => assignmentsTo(m, `st.${field}`).filter((a) => a.fn === 'fill');
  const stopRhs = assignmentsTo(m, 'stop').find((a) => a.fn === 'fill');
  const losing = /price - d \*|\( 1 - d \*/;
  const winning = /price \+ d \*|\( 1 \+ d \*/;
  if (ir.stop?.kind === 'distance' && stopRhs && !losing.test(stopRhs.rhs)) {
    out.push({ line: stopRhs.line, message: 'the stop is not placed on the losing side of the fill' });
  }
  if (ir.stop?.kind === 'level' && ir.stop.where !== 'at' && stopRhs) {
    const away = ir.stop.where === 'below' ? '-' : ir.stop.where === 'above' ? '+' : '- d *';
    if (!new RegExp(`^q \\( base ${escape(away)} `).test(stopRhs.rhs)) {
      out.push({ line: stopRhs.line, message: `the stop is not placed ${ir.stop.where} its level, as the IR says` });
    }
  }
  if (ir.target?.kind === 'distance') {
    if (!positive(ir.target.distance)) out.push({ line: at(set('target')[0]?.line, fnLine('fill')), message: 'the target distance is not positive: it sits at or behind the fill' });
    for (const a of set('target')) if (!winning.test(a.rhs)) out.push({ line: a.line, message: 'the target is not placed beyond the fill, away from the stop' });
  }
  if (ir.breakeven) {
    if (!positive(ir.breakeven)) out.push({ line: at(set('beAt')[0]?.line, fnLine('fill')), message: 'the breakeven trigger is not beyond the fill' });
    for (const a of set('beAt')) if (!winning.test(a.rhs)) out.push({ line: a.line, message: 'the breakeven trigger is not placed beyond the fill' });
  }
  if (ir.target?.kind === 'level' && lineOf(m, /return st\.dir \* \(x - st\.entry\) > 0 \? q\(x\) : NaN;/, 'targetAt') === null) {
    out.push({ line: at(fnLine('targetAt'), fnLine('fill')), message: 'a level target is not held to the far side of the entry' });
  }
  return out;
};

const sessionLeak: Check = ({ ir, m, at, fnLine }) => {
  const out: Finding[] = [];
  const session = ir.session;
  const decideLine = at(fnLine('decide'));
  if (session.kind !== 'windows') {
    if (ir.flat_at_session_end) out.push({ line: decideLine, message: 'flat_at_session_end with no session window to end' });
    return out;
  }
  const gateRead = m.reads.find((r) => r.fn === 'decide' && r.array === session.gate && r.index === 'i');
  const firstArm = callsOf(m, 'arm').find((c) => c.fn === 'decide');
  if (!gateRead || !/!== 1\) return;/.test(m.lines[gateRead.line - 1]!)) {
    out.push({ line: at(firstArm?.line, decideLine), message: 'entries are not gated by the session: a trade may open outside its windows' });
  } else if (firstArm && firstArm.line < gateRead.line) {
    out.push({ line: firstArm.line, message: 'decide may arm before it reads the session gate' });
  }
  const params = { zone: session.zone, windows: session.windows };
  const until = session.until ?? [];
  for (const [id, kind, want] of [
    [session.gate, 'session_gate', until.length > 0 ? { ...params, until } : params],
    [session.end, 'session_end', params],
  ] as const) {
    const spec = ir.series.find((s) => s.id === id);
    if (!spec || spec.kind !== kind || canonicalJson(spec.params) !== canonicalJson(want)) {
      out.push({ line: at(firstRead(m, id), decideLine), message: `${id} is not the ${kind.replace('_', ' ')} of the session's windows` });
    }
  }
  // A clock exit closes the entry window too: a window's entries stop once the rule's own clock exit has come.
  const clocks = clockExitsOf(ir);
  if (canonicalJson(clocks) !== canonicalJson(until)) {
    out.push({
      line: at(firstRead(m, session.gate), decideLine),
      message: `the session gate's entries close at ${until.length > 0 ? until.map(clockWords).join(', ') : 'no clock'}, not at the rule's clock exits (${clocks.map(clockWords).join(', ') || 'none'}): a trade opened after its own exit time is held to the next day's`,
    });
  }
  const ruled = ir.time.some((t) => t.kind === 'clock' || t.kind === 'session_close');
  if (!ir.flat_at_session_end && !ruled) {
    out.push({ line: at(lineOf(m, /st\.deadline = Infinity;/, 'fill'), fnLine('fill')), message: 'a trade opened in a window may stay open past its end: no session-end exit, and the rule names no clock or close' });
  }
  if (ir.flat_at_session_end && lineOf(m, new RegExp(`deadline\\(st, s\\.${escape(session.end)}\\[k\\]!?, WHY_SESSION_END\\);`), 'fill') === null) {
    out.push({ line: at(lineOf(m, /st\.deadline = Infinity;/, 'fill'), fnLine('fill')), message: 'fill does not schedule the close at the end of the window' });
  }
  if ((ir.flat_at_session_end || ruled) && lineOf(m, /if \(s\.t\[i\]!? \+ TF >= st\.deadline\) \{/, 'decide') === null) {
    out.push({ line: decideLine, message: 'decide never closes a trade whose deadline (the window end, a clock, the close) has come' });
  }
  return out;
};

const clockWords = (c: ClockIR): string => `${String(Math.floor(c.minute / 60)).padStart(2, '0')}:${String(c.minute % 60).padStart(2, '0')} ${c.zone}`;

/** The clock exits of an IR (its time exits' clock series), in canonical order. */
function clockExitsOf(ir: DeciderIR): ClockIR[] {
  const clocks = ir.time.flatMap((t) => {
    const spec = t.kind === 'clock' ? ir.series.find((s) => s.id === t.series) : undefined;
    return spec?.kind === 'next_clock' ? [{ zone: spec.params.zone, minute: spec.params.minute }] : [];
  });
  return clocks.sort((a, b) => (canonicalJson(a) < canonicalJson(b) ? -1 : canonicalJson(a) > canonicalJson(b) ? 1 : 0));
}

type Unit = 'price' | 'oscillator' | 'range' | 'time' | 'number';
const an = (u: Unit): string => `${/^[aeiou]/.test(u) ? 'an' : 'a'} ${u}`;

const unitMismatch: Check = ({ ir, m, specs, at, fnLine }) => {
  const out: Finding[] = [];
  const spec = MARKET_SPECS[ir.market];
  const tickLine = at(lineOf(m, /^const INV_TICK = /));
  if (!spec || ir.tick !== spec.tick) out.push({ line: tickLine, message: `the tick is ${ir.tick}, not ${ir.market}'s` });
  const inv = /^const INV_TICK = (\S+);/.exec(m.lines[tickLine - 1] ?? '');
  if (!inv || Number(inv[1]) !== Math.round(1 / ir.tick)) out.push({ line: tickLine, message: `INV_TICK is not 1 / ${ir.tick}` });
  const tfLine = lineOf(m, /^const TF = /);
  if (ir.tf_seconds !== TIMEFRAME_SECONDS[ir.timeframe]) {
    out.push({ line: at(tfLine), message: `tf_seconds is ${ir.tf_seconds}, not the ${ir.timeframe} bar's length` });
  }
  const tf = tfLine === null ? null : /^const TF = (\S+);/.exec(m.lines[tfLine - 1]!);
  if (tfLine !== null && Number(tf?.[1]) !== ir.tf_seconds) out.push({ line: tfLine, message: `TF is ${tf?.[1]}, not ${ir.tf_seconds} seconds` });

  const unitOf = (v: Value): Unit | null => {
    if (v.src === 'constant') return 'number';
    if (v.src !== 'series') return 'price';
    const s = specs.get(v.id);
    if (!s) return null;
    return s.kind === 'rsi' ? 'oscillator' : s.kind === 'atr' ? 'range' : s.source === 'time' ? 'time' : 'price';
  };
  const name = (v: Value): string => (v.src === 'series' ? v.id : v.src === 'constant' ? String(v.value) : `${v.src} ${v.field}`);
  /** The line of a value in a function: the first line reading it there, else the function's. */
  const where = (fn: string, v: Value): number =>
    at(v.src === 'series' ? lineOf(m, new RegExp(`s\\.${escape(v.id)}\\[`), fn) : null, fnLine(fn), fnLine('decide'));
  const bounds = (v: Value, other: Value, fn: string) => {
    if (v.src === 'constant' && unitOf(other) === 'oscillator' && (v.value < 0 || v.value > 100)) {
      out.push({ line: where(fn, other), message: `${name(other)} runs from 0 to 100, and is compared with ${v.value}` });
    }
  };
  for (const { fn, cond } of conditionsOf(ir)) {
    for (const leaf of leaves(cond)) {
      if ('level' in leaf) {
        for (const v of valuesOf(leaf.level)) {
          const u = unitOf(v);
          if (u && u !== 'price' && u !== 'number') out.push({ line: where(fn, v), message: `${leaf.op} compares the bar's prices with ${name(v)}, ${an(u)}, not a price` });
        }
        continue;
      }
      for (const l of valuesOf(leaf.left)) {
        for (const r of valuesOf(leaf.right)) {
          const [a, b] = [unitOf(l), unitOf(r)];
          if (a && b && a !== b && a !== 'number' && b !== 'number') {
            out.push({ line: where(fn, l), message: `${leaf.op} compares ${name(l)} (${a}) with ${name(r)} (${b})` });
          }
          if ((a === 'time' || b === 'time') && a !== b) out.push({ line: where(fn, l), message: `${leaf.op} compares a price with a clock series` });
          bounds(l, r, fn);
          bounds(r, l, fn);
        }
      }
    }
  }
  for (const { what, level, at: construct } of levelsOf(ir)) {
    for (const v of valuesOf(level)) {
      const u = unitOf(v);
      if (u && u !== 'price' && u !== 'number') out.push({ line: at(lineOf(m, construct), fnLine('fill')), message: `the ${what} sits at ${name(v)}, ${an(u)}, not a price` });
    }
  }
  const distances: { what: string; d: Distance | TargetDistance; construct: RegExp }[] = [
    ...(ir.stop?.kind === 'distance' ? [{ what: 'stop', d: ir.stop.distance, construct: /const stop = / }] : []),
    ...(ir.stop?.kind === 'level' ? [{ what: 'stop offset', d: ir.stop.offset, construct: /const stop = / }] : []),
    ...(ir.target?.kind === 'distance' ? [{ what: 'target', d: ir.target.distance, construct: /st\.target = / }] : []),
    ...(ir.trail?.kind === 'distance' ? [{ what: 'trail', d: ir.trail.distance, construct: /const trail = / }] : []),
    ...(ir.breakeven ? [{ what: 'breakeven', d: ir.breakeven, construct: /st\.beAt = / }] : []),
  ];
  for (const { what, d, construct } of distances) {
    const line = at(lineOf(m, construct), fnLine('fill'));
    if (d.unit === 'atr') {
      const s = specs.get(d.series);
      if (!s || s.kind !== 'atr') out.push({ line, message: `the ${what} is in ATRs of ${d.series}, which is not an ATR series of the IR` });
      else if (!new RegExp(`s\\.${escape(d.series)}\\[`).test(m.lines[line - 1]!)) out.push({ line, message: `the ${what} in ATRs does not read ${d.series}` });
    }
    if (d.unit === 'r') {
      if (what === 'stop' || what === 'stop offset' || what === 'trail') {
        out.push({ line, message: `the ${what} is in R, but R is measured from the stop` });
      } else if (lineOf(m, /st\.risk = d \* \(price - stop\);/, 'fill') === null) {
        out.push({ line, message: `the ${what} is in R, but fill never sets the risk from the stop` });
      }
    }
    if (d.unit === 'fraction' && (what === 'stop' || what === 'trail') && !(d.value > 0 && d.value < 1)) {
      out.push({ line, message: `the ${what} is ${d.value} of the price: a fraction of the price lies between 0 and 1 (percent not divided by 100?)` });
    }
  }
  const seconds = ir.time.flatMap((t) => (t.kind === 'seconds' ? [t.n] : []));
  for (const n of seconds) {
    if (!(Number.isInteger(n) && n > 0 && n % 60 === 0)) out.push({ line: at(fnLine('fill')), message: `a time exit of ${n} seconds is not whole minutes` });
  }
  for (const n of linesOf(m, /deadline\(st, s\.t\[f\]!? \+ /)) {
    const x = Number(/s\.t\[f\]!? \+ ([^,]+),/.exec(m.lines[n - 1]!)?.[1]);
    if (!seconds.includes(x)) out.push({ line: n, message: `the code closes ${x} seconds after the fill; the IR's time exits say ${seconds.join(', ') || 'none'}` });
  }
  const bars = ir.time.flatMap((t) => (t.kind === 'bars' ? [t.n] : []));
  for (const n of linesOf(m, /st\.lastBar = f \+ /)) {
    const x = Number(/st\.lastBar = f \+ ([^;]+);/.exec(m.lines[n - 1]!)?.[1]);
    if (!bars.includes(x + 1)) out.push({ line: n, message: `the code holds a trade ${x + 1} bars; the IR's bar exits say ${bars.join(', ') || 'none'}` });
  }
  return out;
};

/** The state fields fill sets for every trade, and arm for every arming. */
const PER_TRADE = ['fill', 'entry', 'stop', 'stopWhy', 'risk', 'best', 'target', 'beAt', 'lastBar', 'deadline', 'deadlineWhy'];
const PER_ARM = ['phase', 'dir', 'signal', 'seal'];

const unboundedState: Check = ({ m, at, fnLine }) => {
  const out: Finding[] = [];
  const fields = new Set(Object.keys(freshState()));
  const state = lineOf(m, /^export interface State \{/);
  if (state !== null) {
    for (let n = state + 1; n <= m.lines.length && !/^\}/.test(m.lines[n - 1]!); n++) {
      const f = /^\s*(\w+)\s*:/.exec(m.lines[n - 1]!)?.[1];
      if (f && !fields.has(f)) out.push({ line: n, message: `the state has a field ${f} beyond the contract's, which no one resets` });
    }
  }
  for (const a of assignmentsTo(m, 'st.*')) {
    const field = a.target.split('.')[1]!;
    if (!fields.has(field)) out.push({ line: a.line, message: `st.${field} is not a field of the contract's state` });
    if (a.op !== '=') out.push({ line: a.line, message: `st.${field} is counted (${a.op}), with nothing that bounds or resets it` });
  }
  const toks = m.tokens;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!;
    const fn = m.functions.find((f) => k >= f.from && k < f.to)?.name ?? null;
    if ((t.text === 'let' || t.text === 'var') && fn === null) {
      out.push({ line: t.line, message: `a module-level ${toks[k + 1]?.text ?? 'variable'} keeps state outside the contract's, carried across trades and runs` });
    }
    if (t.text === 'new' && toks[k + 1]?.kind === 'name') out.push({ line: t.line, message: `the code makes a new ${toks[k + 1]!.text}` });
    if (t.text === '[' && ['=', '(', ',', 'return', '?', ':', '=>'].includes(toks[k - 1]?.text ?? '') && !/^const SEAL\b/.test(m.lines[t.line - 1]!)) {
      out.push({ line: t.line, message: 'the code makes an array' });
    }
    if (t.text === '{' && ['=', '(', ',', 'return', '?', ':'].includes(toks[k - 1]?.text ?? '') && fn !== null) {
      out.push({ line: t.line, message: 'the code makes an object' });
    }
    if (t.text === '.' && ['push', 'unshift', 'splice', 'concat', 'set', 'add'].includes(toks[k + 1]?.text ?? '') && toks[k + 2]?.text === '(') {
      out.push({ line: t.line, message: `the code grows a collection (.${toks[k + 1]!.text})` });
    }
    if (t.text === 'while' || (t.text === 'do' && toks[k + 1]?.text === '{')) out.push({ line: t.line, message: `a ${t.text} loop has no bound` });
    if (t.text === 'for' && toks[k + 1]?.text === '(') {
      const head = toks
        .slice(k + 2, closing(toks, k + 1))
        .map((x) => x.text)
        .join(' ');
      if (!/^let (\w+) = 0 ; \1 < s \. \w+ \. length ; \1 \+\+$/.test(head)) out.push({ line: t.line, message: 'a loop is not bounded by the marks it walks' });
    }
  }
  const setIn = (fn: string) => new Set(assignmentsTo(m, 'st.*').filter((a) => a.fn === fn).map((a) => a.target.split('.')[1]));
  const inFill = setIn('fill');
  const inArm = setIn('arm');
  const missingFill = PER_TRADE.filter((f) => !inFill.has(f));
  const missingArm = PER_ARM.filter((f) => !inArm.has(f));
  if (missingFill.length > 0) out.push({ line: at(fnLine('fill')), message: `fill does not reset ${missingFill.join(', ')} for each trade` });
  if (missingArm.length > 0) out.push({ line: at(fnLine('arm')), message: `arm does not set ${missingArm.join(', ')} on each arming` });
  return out;
};

const CHECKS: Record<ReviewClassName, Check> = {
  'look-ahead': lookAhead,
  repainting,
  'missing stop': missingStop,
  'unreachable state': unreachableState,
  'indicator warm-up': warmUp,
  'same-bar stop and target order': sameBarOrder,
  'session leak': sessionLeak,
  'unit mismatch': unitMismatch,
  'unbounded state': unboundedState,
};

/** The id of the clock series of a clock exit. */
const clockIdOf = (ir: DeciderIR, c: ClockIR): string =>
  ir.series.find((s) => s.kind === 'next_clock' && s.params.zone === c.zone && s.params.minute === c.minute)?.id ?? '';

/** Reviews generated code against its IR, class by class; findings in line order, each once. */
export function review(ir: DeciderIR, code: string): Review {
  const m = readCode(code);
  const specs = new Map(ir.series.map((s) => [s.id, s]));
  const ctx: Ctx = {
    ir,
    m,
    specs,
    at: (...candidates) => candidates.find((c): c is number => typeof c === 'number') ?? 1,
    fnLine: (name) => m.functions.find((f) => f.name === name)?.line ?? null,
  };
  const notes: Finding[] = [];
  if (ir.flat_at_session_end && ir.session.kind === 'windows') {
    const line = lineOf(m, new RegExp(`deadline\\(st, s\\.${escape(ir.session.end)}\\[k\\]`), 'fill');
    notes.push({ line: ctx.at(line, ctx.fnLine('fill')), message: `${FLAT_AT_WINDOW_END}: the rule names no clock or close exit of its own` });
  }
  if (ir.session.kind === 'windows' && clockClosesEntries(ir.session, ir.tf_seconds)) {
    const line = lineOf(m, new RegExp(`if \\(s\\.${escape(ir.session.gate)}\\[i\\]`), 'decide');
    notes.push({ line: ctx.at(line, ctx.fnLine('decide')), message: `${clockClosingWords(ir.session.until ?? [])}: the rule's words name the exit time, not the end of its entries` });
  }
  const outliving = outlivingEntry(ir.session, clockExitsOf(ir), MARKET_SPECS[ir.market]?.kind === 'cme' ? 'cme' : 'utc', ir.tf_seconds);
  if (outliving) {
    const { clock } = outliving;
    const line = lineOf(m, new RegExp(`deadline\\(st, s\\.${escape(clockIdOf(ir, clock))}\\[f\\]`), 'fill');
    notes.push({ line: ctx.at(line, ctx.fnLine('fill')), message: `${outlivingWords(outliving)}: a clock exit closes a session window's entries, and this rule's entries fall outside any window it closes` });
  }
  return {
    classes: REVIEW_CLASSES.map((name) => {
      const seen = new Set<string>();
      const findings = CHECKS[name](ctx)
        .filter((f) => !seen.has(`${f.line}\n${f.message}`) && seen.add(`${f.line}\n${f.message}`))
        .sort((a, b) => a.line - b.line || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
      return { name, status: findings.length > 0 ? 'flagged' : 'passed', findings };
    }),
    notes,
  };
}
