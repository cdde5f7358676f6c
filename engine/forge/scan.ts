import { z } from 'zod';
import { PHASE, WHY } from '../decider/contract.js';
import type { Script } from '../decider/script.js';
import { readNumber } from '../reader/numbers.js';
import { tokenize } from '../reader/tokens.js';
import { MARKET_SPECS, MARKETS, TIMEFRAME_SECONDS, isMarket, isTimeframe, pointsOfDollars, type Market } from '../markets.js';
import {
  DEFAULT_RULES,
  PARTS,
  SpanSchema,
  isSettled,
  type Condition,
  type Default,
  type DefaultRule,
  type Operand,
  type PartName,
  type RuleReading,
  type Span,
  type StopDistance,
  type TargetDistance,
  type Zone,
} from '../reader/schema.js';
import { readCode, type CodeModel, type Token } from './code.js';

/**
 * The forge's scan: every number, indicator, market, time and side the generated code carries because of the rule
 * is traced to the words it came from (the reading's spans), to the documented default a defaulted part names for
 * it (an unstated session, an ATR's unstated length), or, when the caller brought a script block, to the script's
 * JSON path; anything else is invented.
 *
 * What the code carries because of the rule, and how each is traced:
 * - numbers: condition and level constants; stop, offset, target, trail and breakeven distances (points as
 *   written, ticks times the market's tick, dollars over a point's dollars, percent over 100, ATR multiples, R);
 *   a bars exit (the code holds to
 *   f + n - 1); minutes and hours exits in seconds; the bar length TF (the timeframe).
 * - indicators: every series the code reads or declares (ema_9, rsi_14, atr_14, vwap, highest_10, prior_day_high,
 *   opening_range_30_high, and the trader's marks), each with its length.
 * - times: the session's gate and end series (the session's windows), clock exits (clock_15_50_america_new_york,
 *   the session's close), seconds and bars exits, TF, and the timeframe in the header.
 * - sides: enterLong / enterShort, the direction handed to arm, and the side in the header.
 * - markets: the market in the header, and any market symbol written as a name.
 *
 * Exempt, because the rule does not put them there:
 * - the watermark: SEED_HASH and VERSION (string literals), SEAL's eight words, and the `i & 7` that picks one;
 * - the contract's numbers: the state numbers (FLAT = 0, ...) and exit reasons (WHY_STOP = 0, ...) when they are the
 *   contract's, `st.deadlineWhy = 0` (no deadline yet), the mark-shape codes 0 and 1, the session gate's 1;
 * - the deck's market table: INV_TICK (1 / the market's tick), and the one tick the IR puts beyond a stop level when
 *   the words give no offset;
 * - arithmetic: a bar back in an index (i - 1, and i - 1 - 1 for the bar before a previous bar), a loop's start at 0,
 *   sign tests against 0, the 1 of (1 ± d * x);
 * - bar and mark arrays (t, o, h, l, c, v; the marks count as the trader's marks, an indicator);
 * - comments, but for the header's line naming the market, timeframe and side; and string literals, which the
 *   generator writes only for the watermark.
 * A number in any other place is invented, whatever its value.
 */

export const SCAN_KINDS = ['number', 'indicator', 'market', 'time', 'side'] as const;
export type ScanKind = (typeof SCAN_KINDS)[number];

/**
 * Where a token came from: the words (spans of the text), a documented default the reading names (DEFAULT_WORDS
 * says each), or a script block's JSON path ($.entry.triggers[0]...).
 */
export type Trace = { spans: Span[] } | { default: DefaultRule } | { script: string };

export interface Traced {
  line: number;
  token: string;
  kind: ScanKind;
  from: Trace;
}

export interface Invented {
  line: number;
  token: string;
  kind: ScanKind;
  message: string;
}

export interface Scan {
  clean: boolean;
  traced: Traced[];
  invented: Invented[];
}

/** The words and their reading, or the script block the caller brought. */
export type ScanSource = { text: string; parts: RuleReading } | { script: Script };

const token = { line: z.number().int().min(1), token: z.string().min(1), kind: z.enum(SCAN_KINDS) };
export const ScanSchema: z.ZodType<Scan> = z.strictObject({
  clean: z.boolean(),
  traced: z.array(
    z.strictObject({
      ...token,
      from: z.union([
        z.strictObject({ spans: z.array(SpanSchema) }),
        z.strictObject({ default: z.enum(DEFAULT_RULES) }),
        z.strictObject({ script: z.string().min(1) }),
      ]),
    }),
  ),
  invented: z.array(z.strictObject({ ...token, message: z.string().min(1) })),
});

// ---- what the rule says, keyed as the code says it ---------------------------------------------------------------

interface Fact {
  kind: ScanKind;
  part: PartName;
  /** JSON path inside the part's value. */
  path: string;
  /** The number as the words give it, to find the span that says it. */
  words: string | null;
  /** Put in by the IR from the deck's market table, not by the words: neither traced nor invented. */
  exempt?: true;
  /** The documented default that supplied it, when the words leave it unstated. */
  default?: DefaultRule;
}

/** What a distance places. */
type Role = 'stop' | 'target' | 'trail' | 'breakeven';

const slug = (zone: Zone): string => zone.toLowerCase().replace('/', '_');
const clockKey = (at: string, zone: Zone): string => `series:clock_${at.slice(0, 2)}_${at.slice(3, 5)}_${slug(zone)}`;

class Catalog {
  readonly facts = new Map<string, Fact>();
  private readonly tick: number | null;

  constructor(
    readonly market: Market | null,
    private readonly values: Partial<Record<PartName, unknown>>,
    private readonly defaults: Partial<Record<PartName, readonly Default[]>> = {},
  ) {
    this.tick = market ? MARKET_SPECS[market].tick : null;
    for (const part of PARTS) if (values[part] !== undefined && values[part] !== null) this.part(part, values[part]);
  }

  /** The default that supplied the value at the path (a default at a path covers everything under it). */
  private defaultAt(part: PartName, path: string): DefaultRule | undefined {
    const under = (d: Default) => path === d.path || path.startsWith(`${d.path}.`) || path.startsWith(`${d.path}[`);
    return (this.defaults[part] ?? []).find(under)?.rule;
  }

  /** The first fact of a key stands, unless it came from a default and the words say it too. */
  private add(key: string, kind: ScanKind, part: PartName, path: string, words: string | null, exempt?: true): void {
    const rule = this.defaultAt(part, path);
    const had = this.facts.get(key);
    if (had && !(had.default !== undefined && rule === undefined)) return;
    this.facts.set(key, { kind, part, path, words, ...(exempt ? { exempt } : {}), ...(rule ? { default: rule } : {}) });
  }

  private operand(o: Operand, part: PartName, path: string): void {
    switch (o.kind) {
      case 'ema':
      case 'sma':
      case 'rsi':
      case 'atr':
        if (o.n !== null) this.add(`series:${o.kind}_${o.n}`, 'indicator', part, `${path}.n`, String(o.n));
        return;
      case 'highest':
      case 'lowest':
        this.add(`series:${o.kind}_${o.n}`, 'indicator', part, `${path}.n`, String(o.n));
        return;
      case 'vwap':
        this.add('series:vwap', 'indicator', part, path, null);
        return;
      case 'prior_day':
        this.add(`series:prior_day_${o.field}`, 'indicator', part, `${path}.field`, null);
        return;
      case 'opening_range':
        if (o.minutes === null) return;
        for (const field of o.field === 'range' ? ['high', 'low'] : [o.field]) {
          this.add(`series:opening_range_${o.minutes}_${field}`, 'indicator', part, `${path}.minutes`, String(o.minutes));
        }
        return;
      case 'mark':
        this.add('series:mark', 'indicator', part, path, null);
        return;
      case 'swing':
        if (o.strength !== null) this.add(`series:swing_${o.field}_${o.strength}`, 'indicator', part, `${path}.strength`, String(o.strength));
        return;
      case 'bollinger':
        if (o.n !== null && o.k !== null) {
          this.add(`series:bollinger_${o.n}_${String(o.k).replace('.', 'p')}_${o.band}`, 'indicator', part, `${path}.n`, String(o.n));
        }
        return;
      case 'constant':
        this.add(`constant:${o.value}`, 'number', part, `${path}.value`, String(o.value));
        return;
      case 'price':
      case 'bar':
        return;
    }
  }

  private cond(c: Condition, part: PartName, path: string): void {
    if ('args' in c) c.args.forEach((a, k) => this.cond(a, part, `${path}.args[${k}]`));
    else if ('level' in c) this.operand(c.level, part, `${path}.level`);
    else {
      this.operand(c.left, part, `${path}.left`);
      this.operand(c.right, part, `${path}.right`);
    }
  }

  /**
   * A distance keyed by what it places (stop, target, trail, breakeven) and in the IR's units: price (points; ticks
   * times the tick), fraction (percent / 100), atr, r.
   */
  private distance(d: StopDistance | TargetDistance, role: Role, part: PartName, path: string): void {
    const n = `${path}.n`;
    switch (d.unit) {
      case 'points':
        this.add(`distance.price.${role}:${d.n}`, 'number', part, n, String(d.n));
        return;
      case 'ticks':
        if (this.tick !== null) this.add(`distance.price.${role}:${d.n / Math.round(1 / this.tick)}`, 'number', part, n, String(d.n));
        return;
      case 'percent':
        this.add(`distance.fraction.${role}:${d.n / 100}`, 'number', part, n, String(d.n));
        return;
      case 'atr':
        this.add(`distance.atr.${role}:${d.n}`, 'number', part, n, String(d.n));
        if (d.period !== null) this.add(`series:atr_${d.period}`, 'indicator', part, `${path}.period`, String(d.period));
        return;
      case 'r':
        this.add(`distance.r.${role}:${d.n}`, 'number', part, n, String(d.n));
        return;
      case 'range':
        this.add(`distance.range.${role}:${d.n}`, 'number', part, n, String(d.n));
        this.operand(d.of, part, `${path}.of`);
        return;
      case 'usd': {
        const points = this.market ? pointsOfDollars(this.market, d.n, d.micro === true) : null;
        if (points !== null) this.add(`distance.price.${role}:${points}`, 'number', part, n, String(d.n));
        return;
      }
    }
  }

  private part(part: PartName, value: unknown): void {
    const v = value as Script[PartName];
    switch (part) {
      case 'market':
        this.add(`market:${String(v)}`, 'market', part, '', String(v));
        return;
      case 'timeframe':
        if (typeof v === 'string' && isTimeframe(v)) {
          this.add(`timeframe:${v}`, 'time', part, '', null);
          this.add(`tf:${TIMEFRAME_SECONDS[v]}`, 'time', part, '', null);
        }
        return;
      case 'side':
        this.add(`side:${String(v)}`, 'side', part, '', null);
        if (v === 'both') for (const s of ['long', 'short']) this.add(`side:${s}`, 'side', part, '', null);
        return;
      case 'session': {
        const s = value as Script['session'];
        if (s.kind === 'windows') for (const id of ['session_gate', 'session_end']) this.add(`series:${id}`, 'time', part, '.windows', null);
        return;
      }
      case 'entry':
        (value as Script['entry']).triggers.forEach((t, k) => {
          if (t.side !== null) this.add(`side:${t.side}`, 'side', part, `.triggers[${k}].side`, null);
          this.cond(t.when, part, `.triggers[${k}].when`);
        });
        return;
      case 'stop': {
        const s = value as Script['stop'];
        if (s.kind === 'distance') this.distance(s.distance, 'stop', part, '.distance');
        else {
          this.operand(s.level, part, '.level');
          if (s.offset) this.distance(s.offset, 'stop', part, '.offset');
          else if (s.where !== 'at' && this.tick !== null) this.add(`distance.price.stop:${this.tick}`, 'number', part, '.where', null, true);
        }
        if (s.breakeven) this.distance(s.breakeven, 'breakeven', part, '.breakeven');
        return;
      }
      case 'exit': {
        const e = value as Script['exit'];
        if (e.target?.kind === 'distance') this.distance(e.target.distance, 'target', part, '.target.distance');
        if (e.target?.kind === 'level') this.operand(e.target.level, part, '.target.level');
        if (e.trail?.kind === 'distance') this.distance(e.trail.distance, 'trail', part, '.trail.distance');
        if (e.trail?.kind === 'level') this.operand(e.trail.level, part, '.trail.level');
        (e.time ?? []).forEach((t, k) => this.time(t, `.time[${k}]`));
        if (e.when) this.cond(e.when, part, '.when');
        return;
      }
    }
  }

  private time(t: NonNullable<Script['exit']['time']>[number], path: string): void {
    switch (t.kind) {
      case 'bars':
        this.add(`bars:${t.n}`, 'time', 'exit', `${path}.n`, String(t.n));
        return;
      case 'minutes':
        this.add(`seconds:${t.n * 60}`, 'time', 'exit', `${path}.n`, String(t.n));
        return;
      case 'hours':
        this.add(`seconds:${t.n * 3600}`, 'time', 'exit', `${path}.n`, String(t.n));
        return;
      case 'clock':
        this.add(clockKey(t.at, t.zone), 'time', 'exit', `${path}.at`, null);
        return;
      case 'session_close': {
        // The close of the session's window, or else the day's: 16:00 New York (cash) for CME, 00:00 UTC for crypto.
        const session = this.values.session as Script['session'] | undefined;
        if (session?.kind === 'windows') this.add('series:session_end', 'time', 'exit', path, null);
        else if (this.market) {
          const key = MARKET_SPECS[this.market].kind === 'cme' ? clockKey('16:00', 'America/New_York') : clockKey('00:00', 'UTC');
          this.add(key, 'time', 'exit', path, null);
        }
        return;
      }
    }
  }
}

// ---- the code's tokens, keyed -------------------------------------------------------------------------------------

/** What a token of the code says: a key into the catalog, exempt, or invented outright. */
type Reading = { key: string; kind: ScanKind } | { exempt: true } | { invented: string; kind: ScanKind };

const SERIES_ID =
  /^(?:(?:ema|sma|rsi|atr|highest|lowest)_\d+|vwap|prior_day_(?:high|low|close)|opening_range_\d+_(?:high|low)|swing_(?:high|low)_\d+|bollinger_\d+_\d+(?:p\d+)?_(?:upper|middle|lower)|session_(?:gate|end)|clock_\d\d_\d\d_[a-z_]+)$/;
const BARS = new Set(['t', 'o', 'h', 'l', 'c', 'v']);
const MARK_ARRAYS = new Set(['markLo', 'markHi', 'markShape']);
const UNARY_AFTER = new Set(['(', ',', '=', '?', ':', 'return', '>', '<', '>=', '<=', '===', '!==', '&&', '||', '[', '*', '+', '-']);
const COMPARE = new Set(['>', '<', '>=', '<=']);

function seriesName(name: string): Reading | null {
  if (BARS.has(name)) return null;
  if (MARK_ARRAYS.has(name)) return { key: 'series:mark', kind: 'indicator' };
  if (!SERIES_ID.test(name)) return { invented: `${name} is no series the forge makes from a rule`, kind: 'indicator' };
  return { key: `series:${name}`, kind: /^(session_|clock_)/.test(name) ? 'time' : 'indicator' };
}

/** What the statement holding token k places: const stop, st.target, const trail or st.beAt. */
function roleAt(toks: Token[], k: number): Role | null {
  let j = k;
  while (j > 0 && ![';', '{', '}'].includes(toks[j - 1]!.text)) j--;
  const head = toks
    .slice(j, j + 4)
    .map((t) => t.text)
    .join(' ');
  if (head.startsWith('const stop =')) return 'stop';
  if (head.startsWith('st . target =')) return 'target';
  if (head.startsWith('const trail =')) return 'trail';
  if (head.startsWith('st . beAt =')) return 'breakeven';
  return null;
}

function numberReading(m: CodeModel, k: number, value: number, left: number, right: number, market: Market | null): Reading {
  const toks = m.tokens;
  const p = (n: number) => toks[left - n]?.text;
  const a = (n: number) => toks[right + n]?.text;
  const line = m.lines[toks[k]!.line - 1]!;
  if (/^const SEAL\b/.test(line)) return { exempt: true };
  if (p(1) === '=' && p(3) === 'const') {
    const name = p(2)!;
    if (Object.hasOwn(PHASE, name)) {
      return PHASE[name as keyof typeof PHASE] === value ? { exempt: true } : { invented: `${name} is ${value}, not the contract's state number`, kind: 'number' };
    }
    if (name.startsWith('WHY_')) {
      const why = name.slice(4).toLowerCase();
      return Object.hasOwn(WHY, why) && WHY[why as keyof typeof WHY] === value
        ? { exempt: true }
        : { invented: `${name} is ${value}, not the contract's exit reason`, kind: 'number' };
    }
    if (name === 'INV_TICK') {
      return market && Math.round(1 / MARKET_SPECS[market].tick) === value
        ? { exempt: true }
        : { invented: `INV_TICK is ${value}, not 1 / the tick of ${market ?? 'a market the rule names'}`, kind: 'number' };
    }
    if (name === 'TF') return { key: `tf:${value}`, kind: 'time' };
    if (name === 'base' || name === 'x') return { key: `constant:${value}`, kind: 'number' };
    return { invented: `${name} = ${value} is no constant the forge writes`, kind: 'number' };
  }
  // Inside an index: walk back over the index's own tokens to its bracket.
  let j = left - 1;
  while (j >= 0 && (toks[j]!.kind === 'name' || toks[j]!.kind === 'number' || ['-', '&', '.'].includes(toks[j]!.text))) j--;
  if (toks[j]?.text === '[' && toks[j - 1]?.kind === 'name') {
    if (p(1) === '-' && value === 1) return { exempt: true };
    if (p(1) === '&' && p(2) === 'i' && value === 7 && toks[j - 1]!.text === 'SEAL') return { exempt: true };
    return { invented: `${value} in an index is no bar back the forge writes`, kind: 'number' };
  }
  if (p(1) === ',' && p(2) === 'st' && p(3) === ',' && p(4) === 'i' && p(5) === '(' && p(6) === 'arm') {
    return value === 1 || value === -1 ? { key: `side:${value > 0 ? 'long' : 'short'}`, kind: 'side' } : { invented: `arm is handed ${value}, no direction`, kind: 'side' };
  }
  if (p(1) === '?' && p(2) === 'long' && value === 1) return { key: 'side:long', kind: 'side' };
  if (p(1) === ':' && p(2) === '1' && p(3) === '?' && p(4) === 'long' && value === -1) return { key: 'side:short', kind: 'side' };
  if ((p(1) === '===' || p(1) === '!==') && (value === 0 || value === 1) && p(2) === ']') {
    if ((p(3) === 'm' && p(5) === 'markShape') || (p(3) === 'i' && p(5) === 'session_gate')) return { exempt: true };
  }
  if (value === 0 && p(1) === '=' && p(3) === 'let' && p(4) === '(' && p(5) === 'for') return { exempt: true };
  if (value === 0 && p(1) && COMPARE.has(p(1)!)) return { exempt: true };
  if (value === 0 && p(1) === '=' && p(2) === 'deadlineWhy') return { exempt: true };
  if (value === 1 && p(1) === '(' && (a(1) === '-' || a(1) === '+') && a(2) === 'd' && a(3) === '*') return { exempt: true };
  if (p(1) === '+' && p(2) === 'f' && p(3) === '=' && p(4) === 'lastBar') return { key: `bars:${value + 1}`, kind: 'time' };
  if (p(1) === '+' && p(2) === ']' && p(3) === 'f' && p(4) === '[' && p(5) === 't' && p(6) === '.' && p(7) === 's') return { key: `seconds:${value}`, kind: 'time' };
  const unit =
    a(1) === '*' && a(2) === 'st' && a(3) === '.' && a(4) === 'risk'
      ? 'r'
      : a(1) === '*' && a(2) === 's' && a(3) === '.'
        ? 'atr'
        : a(1) === '*' && a(2) === '(' && a(3) === 's' && a(4) === '.'
          ? 'range'
        : p(1) === '*' && ((p(2) === 'd' && (p(3) === '-' || p(3) === '+') && p(4) === '1' && p(5) === '(') || p(2) === 'base')
          ? 'fraction'
          : (p(1) === '*' && p(2) === 'd') || ((p(1) === '-' || p(1) === '+') && p(2) === 'base')
            ? 'price'
            : null;
  if (unit) {
    const role = roleAt(toks, k);
    return role ? { key: `distance.${unit}.${role}:${value}`, kind: 'number' } : { invented: `${value} is a distance that places no stop, target, trail or breakeven`, kind: 'number' };
  }
  if (COMPARE.has(p(1) ?? '') || COMPARE.has(a(1) ?? '') || (p(1) === '(' && p(2) === 'q')) return { key: `constant:${value}`, kind: 'number' };
  return { invented: `${value} sits where the forge writes no number`, kind: 'number' };
}

/** What a key says, in words, for a message. */
function said(key: string): string {
  const [what, v] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
  const [head, unit, role] = what.split('.');
  switch (head) {
    case 'constant':
      return `the number ${v}`;
    case 'distance':
      return unit === 'price'
        ? `a ${role} distance of ${v} in price (points, or ticks times the tick)`
        : unit === 'fraction'
          ? `a ${role} distance of ${v} of the price (${Number(v) * 100} percent)`
          : unit === 'atr'
            ? `a ${role} distance of ${v} ATRs`
            : unit === 'range'
              ? `a ${role} distance of ${v} times the range`
              : `a ${role} distance of ${v}R`;
    case 'bars':
      return `a time exit of ${v} bars`;
    case 'seconds':
      return `a time exit of ${v} seconds`;
    case 'tf':
      return `a bar of ${v} seconds`;
    case 'series':
      return v === 'mark' ? "the trader's marks" : `the series ${v}`;
    case 'side':
      return `the ${v} side`;
    case 'market':
      return `the market ${v}`;
    default:
      return `the ${v} timeframe`;
  }
}

const mentions = (text: string, words: string): boolean =>
  new RegExp(`(?<![\\d.])${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\d])`).test(text);

/**
 * Whether a span says the number, in digits or in words ("nine", "one and a half"), as the reader reads numbers;
 * one may also be "a" or "an" before its unit ("a tick", "an ATR").
 */
function saysNumber(text: string, words: string): boolean {
  if (mentions(text, words)) return true;
  const tokens = tokenize(text);
  const n = Number(words);
  if (n === 1 && tokens.some((t) => t.kind === 'word' && (t.norm === 'a' || t.norm === 'an'))) return true;
  return tokens.some((_, i) => readNumber(tokens, i)?.value === n);
}

/** Whether a span says a length in minutes: in minutes, or in whole hours ("the first hour", "the 2-hour range"). */
function saysMinutes(text: string, minutes: string): boolean {
  if (saysNumber(text, minutes)) return true;
  const hours = Number(minutes) / 60;
  if (!Number.isInteger(hours) || !tokenize(text).some((t) => t.kind === 'word' && HOUR_WORDS.has(t.norm))) return false;
  return hours === 1 || saysNumber(text, String(hours));
}
const HOUR_WORDS = new Set(['hour', 'hours', 'hourly', 'hr', 'hrs', 'h']);

/** Whether a span says a swing's bars on each side: the number, or all its bars ("the 5-bar swing high" is 2). */
const saysStrength = (text: string, strength: string): boolean => saysNumber(text, strength) || saysNumber(text, String(2 * Number(strength) + 1));

/** Whether a span says a multiple: the number, "twice" or "double" for 2, or a percentage ("150% of the range"). */
function saysMultiple(text: string, n: string): boolean {
  if (saysNumber(text, n)) return true;
  if (Number(n) === 2 && tokenize(text).some((t) => t.kind === 'word' && (t.norm === 'twice' || t.norm === 'double'))) return true;
  return saysNumber(text, String(Math.round(Number(n) * 100 * 1e6) / 1e6));
}

/** Scans generated code against the rule it was forged from. */
export function scan(code: string, source: ScanSource): Scan {
  const byScript = 'script' in source;
  const values: Partial<Record<PartName, unknown>> = {};
  const defaults: Partial<Record<PartName, readonly Default[]>> = {};
  for (const part of PARTS) {
    if (byScript) values[part] = source.script[part];
    else if (isSettled(source.parts[part].status)) {
      values[part] = source.parts[part].value;
      defaults[part] = source.parts[part].defaults ?? [];
    }
  }
  const market = typeof values.market === 'string' && isMarket(values.market) ? values.market : null;
  const catalog = new Catalog(market, values, defaults);
  const m = readCode(code);
  const traced: Traced[] = [];
  const invented: Invented[] = [];
  const seen = new Set<string>();

  const settle = (line: number, tokenText: string, r: Reading): void => {
    if ('exempt' in r) return;
    const once = `${line}\n${tokenText}\n${r.kind}`;
    if (seen.has(once)) return;
    seen.add(once);
    if ('invented' in r) {
      invented.push({ line, token: tokenText, kind: r.kind, message: r.invented });
      return;
    }
    const fact = catalog.facts.get(r.key);
    if (fact?.exempt) return;
    if (!fact) {
      invented.push({ line, token: tokenText, kind: r.kind, message: `${said(r.key)} is not in the ${byScript ? 'script' : 'words'}` });
      return;
    }
    if (byScript) {
      traced.push({ line, token: tokenText, kind: r.kind, from: { script: `$.${fact.part}${fact.path}` } });
      return;
    }
    if (fact.default !== undefined) {
      traced.push({ line, token: tokenText, kind: r.kind, from: { default: fact.default } });
      return;
    }
    const spans = source.parts[fact.part].spans.filter((s) => source.text.slice(s.from, s.to) === s.text);
    if (spans.length === 0) {
      invented.push({ line, token: tokenText, kind: r.kind, message: `the reading's ${fact.part} cites no words of the text for ${said(r.key)}` });
      return;
    }
    if (fact.words === null || !Number.isFinite(Number(fact.words))) {
      const naming = fact.words === null ? [] : spans.filter((s) => mentions(s.text, fact.words!));
      traced.push({ line, token: tokenText, kind: r.kind, from: { spans: naming.length > 0 ? naming : spans } });
      return;
    }
    // A number must be said by the words the part cites: a reading that cites real words but carries another
    // number (as a model lane might) has invented it.
    const says = fact.path.endsWith('.minutes') ? saysMinutes : fact.path.endsWith('.strength') ? saysStrength : r.key.startsWith('distance.range.') ? saysMultiple : saysNumber;
    const saying = spans.filter((s) => says(s.text, fact.words!));
    if (saying.length === 0) {
      invented.push({ line, token: tokenText, kind: r.kind, message: `the reading's ${fact.part} says ${fact.words}, which none of the words it cites say` });
      return;
    }
    traced.push({ line, token: tokenText, kind: r.kind, from: { spans: saying } });
  };

  const toks = m.tokens;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!;
    if (t.kind === 'number') {
      let value = Number(t.text.replaceAll('_', ''));
      let left = k;
      let right = k;
      if (toks[k - 1]?.text === '-' && UNARY_AFTER.has(toks[k - 2]?.text ?? '')) {
        value = -value;
        left = k - 1;
        if (toks[left - 1]?.text === '(' && toks[k + 1]?.text === ')' && toks[left - 2]?.kind !== 'name') {
          left -= 1;
          right = k + 1;
        }
      }
      const text = toks
        .slice(left, right + 1)
        .map((x) => x.text)
        .join('');
      settle(t.line, text, numberReading(m, k, value, left, right, market));
    } else if (t.kind === 'name') {
      const read = toks[k - 1]?.text === '.' && toks[k - 2]?.text === 's' && toks[k - 3]?.text !== '.';
      // The Series interface declares the contract's bar and mark arrays for every rule: only reads of marks count.
      const declared = toks[k - 1]?.text === 'readonly' && toks[k + 1]?.text === ':' && !MARK_ARRAYS.has(t.text);
      if (read || declared) {
        const r = seriesName(t.text);
        if (r) settle(t.line, t.text, r);
      } else if (t.text === 'enterLong' || t.text === 'enterShort') {
        settle(t.line, t.text, { key: `side:${t.text === 'enterLong' ? 'long' : 'short'}`, kind: 'side' });
      } else if ((MARKETS as readonly string[]).includes(t.text)) {
        settle(t.line, t.text, { key: `market:${t.text}`, kind: 'market' });
      }
    }
  }
  for (const c of m.comments) header(c, settle);

  const order = <T extends { line: number; token: string }>(x: T[]) => x.sort((a, b) => a.line - b.line || (a.token < b.token ? -1 : a.token > b.token ? 1 : 0));
  return { clean: invented.length === 0, traced: order(traced), invented: order(invented) };
}

/** The header's identity line: "... decider IR (decider.v1): NQ 1m, side long." */
function header(c: Token, settle: (line: number, token: string, r: Reading) => void): void {
  const found = /decider IR \([^)]*\): (\S+) (\S+), side (\S+)\./.exec(c.text);
  if (!found) return;
  const line = c.line + c.text.slice(0, found.index).split('\n').length - 1;
  const [, market, timeframe, side] = found as unknown as [string, string, string, string];
  settle(line, market, isMarket(market) ? { key: `market:${market}`, kind: 'market' } : { invented: `${market} is no market the deck serves`, kind: 'market' });
  settle(line, timeframe, { key: `timeframe:${timeframe}`, kind: 'time' });
  settle(line, side, { key: `side:${side}`, kind: 'side' });
}
