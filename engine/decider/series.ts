import type { Bars } from '../bars.js';
import { atr, bollinger, ema, emaPair, highest, lowest, rsi, sma, vwap, type Anchor } from '../indicators/index.js';
import type { Zone } from '../reader/schema.js';
import type { DeciderSeries } from './contract.js';
import type { ClockIR, DeciderIR, GateParams, SeriesSpec, TradingDay } from './ir.js';
import { DAY, HOUR, instantAt, localDay, offsetReader, zoneOffset } from './zones.js';

/** A mark as the stepper needs it: a level at `price`, or a zone between `price` and `price2`. */
export interface MarkInput {
  kind: 'level' | 'zone';
  price: number;
  price2?: number;
}

/**
 * The key of the trading day holding instant t. Crypto: the UTC day. CME: the day that starts at 17:00 Chicago
 * (the session's open after the daily break), so Sunday evening's bars belong to Monday.
 */
export function tradingDay(day: TradingDay): Anchor {
  if (day === 'utc') return (t) => Math.floor(t / DAY);
  const chicago = offsetReader('America/Chicago');
  return (t) => Math.floor((t + chicago(t) + 7 * HOUR) / DAY);
}

/** x shifted one bar later: out[i] = x[i - 1], NaN at 0. "Of the n bars before the current one." */
function before(x: Float64Array): Float64Array {
  const out = new Float64Array(x.length);
  out[0] = NaN;
  out.set(x.subarray(0, x.length - 1), 1);
  return out;
}

/** The trading day before day k: the day before for crypto; for the CME, Friday before Monday (the weekend is no day). */
function dayBefore(day: TradingDay): (k: number) => number {
  if (day === 'utc') return (k) => k - 1;
  return (k) => ((((k + 4) % 7) + 7) % 7 === 1 ? k - 3 : k - 1);
}

/**
 * The last complete trading day's high, low or close, NaN until one is complete. The first day in the bars counts
 * as complete only if its first bar opens the day (the bar slot before it belongs to another day). It is the day
 * just before the bar's own: where the bars hold nothing of that day (a gap of days in the tape), the level in
 * force is not known and reads NaN, never an older day's.
 */
function priorDay(bars: Bars, field: 'high' | 'low' | 'close', tf: number, day: TradingDay): Float64Array {
  const key = tradingDay(day);
  const previous = dayBefore(day);
  const out = new Float64Array(bars.length);
  let prior = NaN;
  let current = bars.length > 0 ? key(bars.t[0]!) : 0;
  let complete = bars.length > 0 && key(bars.t[0]! - tf) !== current;
  let hi = -Infinity;
  let lo = Infinity;
  let close = NaN;
  for (let i = 0; i < bars.length; i++) {
    const k = key(bars.t[i]!);
    if (k !== current) {
      prior = complete && current === previous(k) ? (field === 'high' ? hi : field === 'low' ? lo : close) : NaN;
      current = k;
      complete = true;
      hi = -Infinity;
      lo = Infinity;
    }
    out[i] = prior;
    if (bars.h[i]! > hi) hi = bars.h[i]!;
    if (bars.l[i]! < lo) lo = bars.l[i]!;
    close = bars.c[i]!;
  }
  return out;
}

/**
 * The high or low of the bars opening in [open, open + minutes) of each day (New York weekdays for the cash session,
 * every UTC day for crypto). It reads NaN while it forms, holds from the close of its last bar (or, when the range's
 * last bars are absent, from the first bar after the range) until the next day's range starts forming, and stays
 * NaN on a day whose opening minutes have no bar.
 */
function openingRange(bars: Bars, spec: Extract<SeriesSpec, { kind: 'opening_range' }>, tf: number): Float64Array {
  const { field, minutes, zone, open } = spec.params;
  const weekdaysOnly = zone !== 'UTC';
  const offset = offsetReader(zone);
  const out = new Float64Array(bars.length);
  let value = NaN;
  let day = NaN;
  let end = NaN;
  let forming = false;
  let acc = NaN;
  for (let i = 0; i < bars.length; i++) {
    const t = bars.t[i]!;
    const d = localDay(t, offset(t));
    const weekday = (((d + 4) % 7) + 7) % 7;
    if (d !== day && !(weekdaysOnly && (weekday === 0 || weekday === 6))) {
      const start = instantAt(zone, d, open);
      if (t >= start) {
        day = d;
        end = start + minutes * 60;
        value = NaN;
        forming = t < end;
        acc = field === 'high' ? -Infinity : Infinity;
      }
    }
    // A range whose last bars printed no trade closed at its end all the same: it is known from the next bar on.
    if (forming && t >= end) {
      value = acc;
      forming = false;
    }
    if (forming && t < end) {
      const x = field === 'high' ? bars.h[i]! : bars.l[i]!;
      if (field === 'high' ? x > acc : x < acc) acc = x;
      if (t + tf >= end) {
        value = acc;
        forming = false;
      }
    }
    out[i] = value;
  }
  return out;
}

/** The first instant after `after` when the zone's clock reads `minute`. */
export function clockAfter(c: ClockIR, after: number): number {
  const d = localDay(after, zoneOffset(c.zone, after));
  const today = instantAt(c.zone, d, c.minute);
  return today > after ? today : instantAt(c.zone, d + 1, c.minute);
}

/**
 * Per bar, by its close (t + tf): 1 in a window else 0, and the end instant of the window holding it. With until
 * clocks, the gate is 1 only before the first of them to come round after the window holding the close opened: a
 * clock exit closes the window's entries.
 */
function sessionWindows(bars: Bars, { zone, windows, until = [] }: GateParams, tf: number, want: 'gate' | 'end'): Float64Array {
  const offset = offsetReader(zone);
  const out = new Float64Array(bars.length);
  let cachedDay = NaN;
  /** Per window: its end and its entries' cut-off, for the window opening today and the one that opened yesterday. */
  const at = windows.map(() => ({ endToday: 0, endTomorrow: 0, cutToday: Infinity, cutYesterday: Infinity }));
  const cutAfter = (open: number): number => until.reduce((cut, c) => Math.min(cut, clockAfter(c, open)), Infinity);
  for (let i = 0; i < bars.length; i++) {
    const close = bars.t[i]! + tf;
    const off = offset(close);
    const d = localDay(close, off);
    if (d !== cachedDay) {
      cachedDay = d;
      windows.forEach((w, k) => {
        at[k]!.endToday = instantAt(zone, d, w.to);
        at[k]!.endTomorrow = instantAt(zone, d + 1, w.to);
        if (until.length > 0) {
          at[k]!.cutToday = cutAfter(instantAt(zone, d, w.from));
          at[k]!.cutYesterday = cutAfter(instantAt(zone, d - 1, w.from));
        }
      });
    }
    const minute = (close + off - d * DAY) / 60;
    let gate = 0;
    let end = -Infinity;
    for (let k = 0; k < windows.length; k++) {
      const w = windows[k]!;
      let e = NaN;
      let cut = Infinity;
      if (w.from < w.to) {
        if (minute >= w.from && minute < w.to) [e, cut] = [at[k]!.endToday, at[k]!.cutToday];
      } else if (minute >= w.from) {
        [e, cut] = [at[k]!.endTomorrow, at[k]!.cutToday];
      } else if (minute < w.to) {
        [e, cut] = [at[k]!.endToday, at[k]!.cutYesterday];
      }
      if (e === e) {
        if (close < cut) gate = 1;
        if (e > end) end = e;
      }
    }
    out[i] = want === 'gate' ? gate : end > -Infinity ? end : Infinity;
  }
  return out;
}

/** The session gate alone, for bars that may hold only their open times (the other arrays are not read). */
export const sessionGate = (bars: Bars, params: GateParams, tf: number): Float64Array => sessionWindows(bars, params, tf, 'gate');

/**
 * The most recent swing high (low) known at each bar's close: bar j is a swing high when no bar among the
 * `strength` before it has a high at or above its own and none among the `strength` after it one above it (a swing
 * low likewise, below), and it is known at the close of bar j + strength. NaN until one is known.
 */
function swing(bars: Bars, field: 'high' | 'low', strength: number): Float64Array {
  const x = field === 'high' ? bars.h : bars.l;
  const sign = field === 'high' ? 1 : -1;
  const out = new Float64Array(bars.length);
  let last = NaN;
  for (let i = 0; i < bars.length; i++) {
    const j = i - strength;
    if (j - strength >= 0) {
      const v = sign * x[j]!;
      let pivot = true;
      for (let m = j - strength; m < j && pivot; m++) if (sign * x[m]! >= v) pivot = false;
      for (let m = j + 1; m <= i && pivot; m++) if (sign * x[m]! > v) pivot = false;
      if (pivot) last = x[j]!;
    }
    out[i] = last;
  }
  return out;
}

/** Per bar: the first instant after its open when the zone's clock reads `minute`. */
function nextClock(bars: Bars, zone: Zone, minute: number): Float64Array {
  const offset = offsetReader(zone);
  const out = new Float64Array(bars.length);
  let cachedDay = NaN;
  let today = 0;
  let tomorrow = 0;
  for (let i = 0; i < bars.length; i++) {
    const t = bars.t[i]!;
    const d = localDay(t, offset(t));
    if (d !== cachedDay) {
      cachedDay = d;
      today = instantAt(zone, d, minute);
      tomorrow = instantAt(zone, d + 1, minute);
    }
    out[i] = today > t ? today : tomorrow;
  }
  return out;
}

function compute(spec: SeriesSpec, bars: Bars, tf: number): Float64Array {
  switch (spec.kind) {
    case 'ema':
      return ema(bars.c, spec.params.n);
    case 'sma':
      return sma(bars.c, spec.params.n);
    case 'rsi':
      return rsi(bars.c, spec.params.n);
    case 'atr':
      return atr(bars.h, bars.l, bars.c, spec.params.n);
    case 'vwap':
      return vwap(bars.t, bars.h, bars.l, bars.c, bars.v, tradingDay(spec.params.day));
    case 'highest':
      return before(highest(bars.h, spec.params.n));
    case 'lowest':
      return before(lowest(bars.l, spec.params.n));
    case 'prior_day':
      return priorDay(bars, spec.params.field, tf, spec.params.day);
    case 'opening_range':
      return openingRange(bars, spec, tf);
    case 'session_gate':
      return sessionWindows(bars, spec.params, tf, 'gate');
    case 'session_end':
      return sessionWindows(bars, spec.params, tf, 'end');
    case 'next_clock':
      return nextClock(bars, spec.params.zone, spec.params.minute);
    case 'swing':
      return swing(bars, spec.params.field, spec.params.strength);
    case 'bollinger':
      return bollinger(bars.c, spec.params.n, spec.params.k)[spec.params.band];
  }
}

/**
 * Everything a decider of this IR reads over these bars: the bars, the marks and each series, computed once. `known`
 * holds series already computed over the same bars, by id (an id names its kind and parameters); those missing are
 * computed and added to it, so rules that share a series compute it once.
 */
export function seriesOf(ir: DeciderIR, bars: Bars, marks: readonly MarkInput[] = [], known: Map<string, Float64Array> = new Map()): DeciderSeries {
  const s: Record<string, Float64Array | Uint8Array> = {
    t: bars.t,
    o: bars.o,
    h: bars.h,
    l: bars.l,
    c: bars.c,
    v: bars.v,
    markLo: Float64Array.from(marks, (m) => (m.kind === 'zone' ? Math.min(m.price, m.price2!) : m.price)),
    markHi: Float64Array.from(marks, (m) => (m.kind === 'zone' ? Math.max(m.price, m.price2!) : m.price)),
    markShape: Uint8Array.from(marks, (m) => (m.kind === 'zone' ? 1 : 0)),
  };
  // The averages of the close are computed two at a time (emaPair): the same values, in about half the time.
  const emas = ir.series.filter((spec) => spec.kind === 'ema' && !known.has(spec.id)) as Extract<SeriesSpec, { kind: 'ema' | 'sma' | 'rsi' }>[];
  for (let k = 0; k + 1 < emas.length; k += 2) {
    const [a, b] = emaPair(bars.c, emas[k]!.params.n, emas[k + 1]!.params.n);
    known.set(emas[k]!.id, a).set(emas[k + 1]!.id, b);
  }
  for (const spec of ir.series) {
    let x = known.get(spec.id);
    if (!x) known.set(spec.id, (x = compute(spec, bars, ir.tf_seconds)));
    s[spec.id] = x;
  }
  return s as DeciderSeries;
}
