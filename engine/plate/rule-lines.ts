import type { Cond, DeciderIR, Distance, Operand, SeriesSpec, TargetDistance } from '../decider/ir.js';
import { condSeries } from '../stepper/readiness.js';
import { formatNumber } from './scale.js';

/**
 * What a rule reads, as a rehearsal plate draws it: each series as a line named in a trader's words, on the price
 * (averages, VWAP, bands, prior day and opening range levels, highs and lows, swings) or in a pane of its own (RSI
 * on 0 to 100; an ATR a condition compares), and the constants its conditions compare them with as thresholds.
 */

/** Where a line is drawn: over the candles, or in a pane below them. */
export type LinePane = 'price' | 'rsi' | 'atr';

export interface RuleLine {
  /** The legend's words: "EMA(9)", "RSI(14)", "Bollinger(20, 2)". */
  label: string;
  pane: LinePane;
  /** The series drawn under this label (a band's three, a range's high and low), by IR id. */
  ids: string[];
}

export interface Threshold {
  pane: LinePane;
  value: number;
}

const two = (n: number): string => String(n).padStart(2, '0');
const clock = (m: number): string => `${two(Math.floor(m / 60))}:${two(m % 60)}`;

/** A series' name and the key of the legend entry it is drawn under (a band's or a range's edges share one). */
function named(s: SeriesSpec): { key: string; label: string } | null {
  switch (s.kind) {
    case 'ema':
    case 'sma':
    case 'rsi':
    case 'atr':
      return { key: s.id, label: `${s.kind.toUpperCase()}(${s.params.n})` };
    case 'vwap':
      return { key: s.id, label: 'VWAP' };
    case 'highest':
      return { key: s.id, label: `highest high of ${s.params.n} bars before` };
    case 'lowest':
      return { key: s.id, label: `lowest low of ${s.params.n} bars before` };
    case 'prior_day':
      return { key: s.id, label: `prior day ${s.params.field}` };
    case 'opening_range':
      return { key: `opening_range_${s.params.minutes}`, label: `${s.params.minutes}-minute opening range from ${clock(s.params.open)} ${s.params.zone}` };
    case 'swing':
      return { key: s.id, label: `swing ${s.params.field} (${s.params.strength} bars each side)` };
    case 'bollinger':
      return { key: `bollinger_${s.params.n}_${s.params.k}`, label: `Bollinger(${s.params.n}, ${formatNumber(s.params.k, s.params.k % 1 === 0 ? 0 : 1)})` };
    case 'session_gate':
    case 'session_end':
    case 'next_clock':
      // Times, not values: the session is drawn as shading.
      return null;
  }
}

/** The series the rule's conditions read (entries and the exit rule): an ATR is drawn only when one compares it. */
const conditionSeries = (ir: DeciderIR): Set<string> => condSeries(ir.exit_when, condSeries(ir.entry.long, condSeries(ir.entry.short)));

/** The lines a rehearsal plate draws for a rule, in the IR's order of series. */
export function ruleLinesOf(ir: DeciderIR): RuleLine[] {
  const compared = conditionSeries(ir);
  const lines = new Map<string, RuleLine>();
  for (const s of ir.series) {
    const name = named(s);
    if (!name) continue;
    if (s.kind === 'atr' && !compared.has(s.id)) continue;
    const pane: LinePane = s.kind === 'rsi' ? 'rsi' : s.kind === 'atr' ? 'atr' : 'price';
    const line = lines.get(name.key);
    if (line) line.ids.push(s.id);
    else lines.set(name.key, { label: name.label, pane, ids: [s.id] });
  }
  // By name, numbers by value (EMA(9) before EMA(21)), compared code unit by code unit so no locale moves them.
  const key = (l: RuleLine): string => l.label.replace(/\d+/g, (d) => d.padStart(6, '0'));
  return [...lines.values()].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** The pane an operand is read on, or null for a constant (or a trader's mark, drawn nowhere here). */
function paneOf(o: Operand, kinds: Map<string, SeriesSpec['kind']>): LinePane | 'constant' | null {
  if (o.kind !== 'point') return o.kind === 'zone' ? 'price' : null;
  const v = o.at;
  if (v.src === 'constant') return 'constant';
  if (v.src !== 'series') return 'price';
  const kind = kinds.get(v.id);
  return kind === 'rsi' ? 'rsi' : kind === 'atr' ? 'atr' : 'price';
}

/** The constants the rule's conditions compare a series or a price with, each on the pane of what it is compared with. */
export function thresholdsOf(ir: DeciderIR): Threshold[] {
  const kinds = new Map(ir.series.map((s) => [s.id, s.kind]));
  const out = new Map<string, Threshold>();
  const visit = (c: Cond | null): void => {
    if (c === null) return;
    if ('args' in c) return c.args.forEach(visit);
    if ('level' in c) {
      // "breaks above 4000": a level on the price.
      if (c.level.kind === 'point' && c.level.at.src === 'constant') out.set(`price ${c.level.at.value}`, { pane: 'price', value: c.level.at.value });
      return;
    }
    const [a, b] = [paneOf(c.left, kinds), paneOf(c.right, kinds)];
    const pair: [LinePane | 'constant' | null, Operand][] = [
      [a, c.right],
      [b, c.left],
    ];
    for (const [pane, other] of pair) {
      if (pane === null || pane === 'constant' || other.kind !== 'point' || other.at.src !== 'constant') continue;
      out.set(`${pane} ${other.at.value}`, { pane, value: other.at.value });
    }
  };
  visit(ir.entry.long);
  visit(ir.entry.short);
  visit(ir.exit_when);
  return [...out.values()].sort((x, y) => (x.pane < y.pane ? -1 : x.pane > y.pane ? 1 : x.value - y.value));
}

/** A distance in a trader's short words: "4 points", "0.5%", "2 x ATR(14)", "2R". */
function distanceWords(d: Distance | TargetDistance): string {
  switch (d.unit) {
    case 'price':
      return `${formatNumber(d.value, d.value % 1 === 0 ? 0 : 2)} points`;
    case 'fraction':
      return `${formatNumber(d.value * 100, 2).replace(/\.?0+$/, '')}%`;
    case 'atr':
      return `${d.mult} x ATR(${d.series.replace('atr_', '')})`;
    case 'range':
      return `${d.mult} x the opening range`;
    case 'r':
      return `${d.value}R`;
  }
}

/** The words of an operand a stop or target sits at. */
function levelWords(o: Operand, ir: DeciderIR): string {
  if (o.kind === 'mark') return 'a mark';
  const id = o.kind === 'zone' ? (o.lo.src === 'series' ? o.lo.id : null) : o.at.src === 'series' ? o.at.id : null;
  const spec = id ? ir.series.find((s) => s.id === id) : undefined;
  if (spec) return named(spec)?.label ?? spec.id;
  if (o.kind === 'point' && o.at.src === 'constant') return String(o.at.value);
  if (o.kind === 'point' && (o.at.src === 'signal_bar' || o.at.src === 'previous_bar')) return `the ${o.at.src === 'signal_bar' ? 'signal' : 'previous'} bar's ${o.at.field === 'h' ? 'high' : 'low'}`;
  return 'a level';
}

/** The rule's other ways out in short words: "trail 3 x ATR(14)", "out after 90 bars", "out at 11:30 America/New_York". */
function otherExits(ir: DeciderIR): string[] {
  const clockOf = (id: string): string => {
    const spec = ir.series.find((x) => x.id === id);
    return spec?.kind === 'next_clock' ? `${clock(spec.params.minute)} ${spec.params.zone}` : 'session end';
  };
  const out: string[] = [];
  if (ir.trail) out.push(ir.trail.kind === 'distance' ? `trail ${distanceWords(ir.trail.distance)}` : `trail at ${levelWords(ir.trail.level, ir)}`);
  if (ir.breakeven) out.push(`breakeven at ${distanceWords(ir.breakeven)}`);
  if (ir.exit_when) out.push('exit rule');
  for (const t of ir.time) {
    if (t.kind === 'bars') out.push(`out after ${t.n} bars`);
    if (t.kind === 'seconds') out.push(`out after ${t.n / 60} minutes`);
    if (t.kind === 'clock' || t.kind === 'session_close') out.push(`out at ${clockOf(t.series)}`);
  }
  if (ir.flat_at_session_end) out.push('flat at window end');
  return out;
}

/** The stop and the target as the legend says them ("stop 2 x ATR(14)", "target 2R"), and its other ways out. */
export function exitWords(ir: DeciderIR): { stop: string; target: string | null; others: string[] } {
  const s = ir.stop;
  const stop = s.kind === 'distance' ? `stop ${distanceWords(s.distance)}` : `stop ${s.where === 'at' ? 'at' : s.where} ${levelWords(s.level, ir)}`;
  const t = ir.target;
  const target = t === null ? null : t.kind === 'distance' ? `target ${distanceWords(t.distance)}` : `target at ${levelWords(t.level, ir)}`;
  return { stop, target, others: otherExits(ir) };
}
