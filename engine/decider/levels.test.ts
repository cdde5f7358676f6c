import { describe, expect, it } from 'vitest';
import { sampleFile } from '../../test/support/tape-file.js';
import type { Bars } from '../bars.js';
import { atr, ema, vwap } from '../indicators/index.js';
import { readRule } from '../reader/index.js';
import { resample } from '../resample.js';
import type { Trade } from '../stepper/envelope.js';
import { rehearseScript } from '../stepper/toy-bars.js';
import { review } from '../forge/review.js';
import { codeOf } from './codegen.js';
import { irOf, type DeciderIR } from './ir.js';
import { scriptOfReading, type Script } from './script.js';
import { tradingDay } from './series.js';
import { noteUnsaid } from './unsaid.js';

// A trader's words for structure stops, band and range exits, bare takes, spelled-out timeframes, a bare city as
// the clock, a trailing stop as the stop, and a clock exit on an opening-range rule: each rule is read, forged and
// rehearsed on the shipped sample (ES 1m for the CME session, Coinbase BTC and ETH 1m for crypto; no costs), and
// every trade is held to fills this file computes on its own from the bars: its own swing, Bollinger band and
// opening range, its own wall clock (Intl), and its own walk of the stepper's documented fills.

const ES = sampleFile('ES-1m');
const ETH = sampleFile('ETH-1m');
const BTC = sampleFile('BTC-1m');

/** The bars in [from, to) unix seconds: one stretch of a sample whose days are not contiguous. */
function stretch(bars: Bars, from: string, to: string): Bars {
  const [a, b] = [Date.parse(from) / 1000, Date.parse(to) / 1000];
  const keep = Array.from(bars.t, (t, i) => [t, i] as const).filter(([t]) => t >= a && t < b).map(([, i]) => i);
  const pick = (x: Float64Array) => Float64Array.from(keep, (i) => x[i]!);
  return { length: keep.length, t: pick(bars.t), o: pick(bars.o), h: pick(bars.h), l: pick(bars.l), c: pick(bars.c), v: pick(bars.v) } as Bars;
}

function forged(words: string): { script: Script; ir: DeciderIR } {
  const got = scriptOfReading(readRule(words));
  if (!got.ok) throw new Error(`${words}: ${got.message}`);
  return { script: got.script, ir: irOf(got.script) };
}

type Traded = Trade & { f: number; x: number };
/** The rule's trades over the bars, each with its fill bar f and the bar it left in x. */
function trades(words: string, bars: Bars): { trades: Traded[]; skipped: number; ir: DeciderIR } {
  const { script, ir } = forged(words);
  const r = rehearseScript(script, bars);
  const at = new Map(Array.from(bars.t, (t, i) => [t, i]));
  const tf = ir.tf_seconds;
  return {
    ir,
    skipped: r.skipped,
    trades: r.trades.map((x) => ({ ...x, f: at.get(x.entry_t)!, x: at.get(x.exit_t) ?? at.get(x.exit_t - tf)! })),
  };
}

/** A price on the tick grid, as 1 / tick steps. */
const onTick = (tick: number) => {
  const inv = Math.round(1 / tick);
  return (x: number) => Math.round(x * inv) / inv;
};
const es = onTick(0.25);
const cents = onTick(0.01);

/** Minute of the local day on a zone's wall clock, read with Intl (once an hour: the zones change on the hour). */
function wallMinute(zone: string): (t: number) => number {
  const f = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const hours = new Map<number, number>();
  return (t) => {
    const hour = Math.floor(t / 3600);
    let m = hours.get(hour);
    if (m === undefined) {
      const p = Object.fromEntries(f.formatToParts(new Date(hour * 3600_000)).map((x) => [x.type, x.value]));
      hours.set(hour, (m = Number(p.hour) * 60 + Number(p.minute)));
    }
    return m + Math.floor((t % 3600) / 60);
  };
}
const nyMinute = wallMinute('America/New_York');
const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' });
const days = new Map<number, string>();
/** The New York date of instant t, YYYY-MM-DD. */
function nyDay(t: number): string {
  const hour = Math.floor(t / 3600);
  let d = days.get(hour);
  if (d === undefined) days.set(hour, (d = dayFormat.format(new Date(hour * 3600_000))));
  return d;
}

/** The opening range of a New York day: high and low of the bars opening in its first `minutes` from 09:30. */
function openingRange(bars: Bars, day: string, minutes: number): { hi: number; lo: number; last: number } {
  let hi = -Infinity;
  let lo = Infinity;
  let last = -1;
  for (let i = 0; i < bars.length; i++) {
    const m = nyMinute(bars.t[i]!);
    if (nyDay(bars.t[i]!) !== day || m < 570 || m >= 570 + minutes) continue;
    hi = Math.max(hi, bars.h[i]!);
    lo = Math.min(lo, bars.l[i]!);
    last = i;
  }
  return { hi, lo, last };
}

/** The most recent swing low known at bar i's close: a low below the k before it and no higher than the k after. */
function swingLow(bars: Bars, i: number, k: number): number {
  for (let j = i - k; j - k >= 0; j--) {
    const before = Array.from({ length: k }, (_, m) => bars.l[j - k + m]!);
    const after = Array.from({ length: k }, (_, m) => bars.l[j + 1 + m]!);
    if (before.every((x) => x > bars.l[j]!) && after.every((x) => x >= bars.l[j]!)) return bars.l[j]!;
  }
  return NaN;
}

/** Bollinger bands of the closes at bar i: the mean of n, and k population standard deviations either side. */
function band(bars: Bars, i: number, n: number, k: number): { lower: number; middle: number; upper: number } {
  const xs = Array.from({ length: n }, (_, m) => bars.c[i - n + 1 + m]!);
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  return { lower: mean - k * sd, middle: mean, upper: mean + k * sd };
}

interface Plan {
  dir: 1 | -1;
  stop: number;
  /** A price, or a level read at a bar's close (at the signal bar first), counted only while beyond the entry. */
  target: number | ((i: number) => number);
  /** Moves the stop at bar i's close (a trail), given the best price since the entry. */
  trail?: (i: number, best: number, stop: number) => number;
  /** A rule exit decided at bar i's close, filled at the next open. */
  rule?: (i: number) => boolean;
  /** A scheduled exit met at bar i's close. */
  closeAt?: (i: number) => boolean;
}

/**
 * The stepper's fills as docs/studio.md states them, walked here from the fill bar f: a pending rule exit at the
 * open; an open through the stop, or at or beyond the target, at that open; the stop first, then the target, inside
 * the range; at the close the trail and a scheduled exit, then a rule exit for the next open.
 */
function walk(bars: Bars, f: number, entry: number, p: Plan, tick: number): { x: number; exit: number; why: string; atClose: boolean } {
  const { dir: d } = p;
  const q = onTick(tick);
  const targetAt = (i: number): number => {
    if (typeof p.target === 'number') return p.target;
    const x = p.target(i);
    return d * (x - entry) > 0 ? q(x) : NaN;
  };
  let { stop } = p;
  let stopWhy = 'stop';
  let target = targetAt(f - 1);
  let best = entry;
  let pending = false;
  for (let i = f; i < bars.length; i++) {
    const [o, h, l, c] = [bars.o[i]!, bars.h[i]!, bars.l[i]!, bars.c[i]!];
    if (pending) return { x: i, exit: o, why: 'exit_rule', atClose: false };
    if (d * (o - stop) <= 0) return { x: i, exit: o, why: stopWhy, atClose: false };
    if (d * (o - target) >= 0) return { x: i, exit: o, why: 'target', atClose: false };
    if (d > 0 ? l <= stop : h >= stop) return { x: i, exit: stop, why: stopWhy, atClose: false };
    if (d > 0 ? h >= target : l <= target) return { x: i, exit: target, why: 'target', atClose: false };
    best = d > 0 ? Math.max(best, h) : Math.min(best, l);
    if (p.trail) {
      const t = p.trail(i, best, stop);
      if (d * (t - stop) > 0) [stop, stopWhy] = [t, 'trail'];
    }
    target = targetAt(i);
    if (p.closeAt?.(i)) return { x: i, exit: c, why: 'scheduled', atClose: true };
    if (p.rule?.(i)) pending = true;
  }
  return { x: bars.length - 1, exit: bars.c[bars.length - 1]!, why: 'end_of_data', atClose: true };
}

/** Each trade against the walk: where and why it left (a scheduled exit as one of `scheduled`), and at what price. */
function heldTo(bars: Bars, tf: number, tick: number, ts: readonly Traded[], plan: (x: Traded) => Plan, scheduled: string[] = []): void {
  for (const x of ts) {
    const p = plan(x);
    // The target the trade states is the one the walk holds it to (null for none).
    if (typeof p.target === 'number') expect(x.target).toBe(Number.isNaN(p.target) ? null : p.target);
    const w = walk(bars, x.f, x.entry, p, tick);
    if (w.why === 'scheduled') expect(scheduled).toContain(x.why);
    const want = { t: bars.t[w.x]! + (w.atClose ? tf : 0), exit: w.exit, why: w.why === 'scheduled' ? x.why : w.why };
    expect({ t: x.exit_t, exit: x.exit, why: x.why }).toEqual(want);
  }
}

describe('a clock exit on an opening-range rule (ES 1m, 7-11 October 2013)', () => {
  const words = 'ES 1m: buy a break above the 30-minute opening range high, stop at the opening range low, exit at 11:30 ET.';
  const got = trades(words, ES);

  it('closes the entry window at the exit time: no trade opens after 11:30 New York, and each leaves at 11:30 that day', () => {
    // Before, a break at 12:32 on the 7th filled at 12:33 and was held past the close to the next day's 11:30.
    expect(got.trades.map((x) => [x.entry_t, x.exit_t, x.why])).toEqual([
      [Date.parse('2013-10-07T14:08Z') / 1000, Date.parse('2013-10-07T15:30Z') / 1000, 'clock'],
      [Date.parse('2013-10-10T14:05Z') / 1000, Date.parse('2013-10-10T15:30Z') / 1000, 'clock'],
      [Date.parse('2013-10-11T14:01Z') / 1000, Date.parse('2013-10-11T15:30Z') / 1000, 'clock'],
    ]);
    for (const x of got.trades) {
      expect(nyMinute(x.entry_t)).toBeLessThan(11 * 60 + 30);
      expect(nyDay(x.exit_t)).toBe(nyDay(x.entry_t));
    }
  });

  it('fills the 7th by hand: the range 1667.25-1673.75, broken by the 10:07 bar (high 1674.75), in at 1674.5, out at 1675', () => {
    // 09:30-09:59 New York: highest high 1673.75, lowest low 1667.25 (30 bars). 10:06 high 1673.25, 10:07 high
    // 1674.75: the break arms at the 10:07 close and fills at the 10:08 open, 1674.50. Stop at the range low,
    // 1667.25. 11:29 closes at 1675.00, the close that reaches 11:30: out there, (1675 - 1674.5) / 7.25 R.
    const range = openingRange(ES, '2013-10-07', 30);
    expect(range).toMatchObject({ hi: 1673.75, lo: 1667.25 });
    expect(got.trades[0]).toMatchObject({ side: 'long', entry: 1674.5, stop: 1667.25, exit: 1675, r: 0.069, why: 'clock' });
  });

  it('says so: the reading\'s session note, and the review\'s note at the gate', () => {
    expect(noteUnsaid(readRule(words)).session.note).toContain('a clock exit closes the entry window too: no trade opens in a window once 11:30 America/New_York has come round in it');
    const { ir } = forged(words);
    const notes = review(ir, codeOf(ir, 'a'.repeat(64), 'test.v1')).notes;
    expect(notes.map((n) => n.message)).toEqual([
      "a clock exit closes the entry window too: no trade opens in a window once 11:30 America/New_York has come round in it: the rule's words name the exit time, not the end of its entries",
    ]);
  });
});

describe('a stop under the swing low (ES 1m)', () => {
  const got = trades('ES 1m: buy when price crosses above VWAP, stop below the swing low, target 2R.', ES);

  it("places each stop a tick under the last swing low (two bars either side) known at the signal bar's close", () => {
    expect(got.trades.length).toBeGreaterThan(5);
    for (const x of got.trades) {
      const stop = es(swingLow(ES, x.f - 1, 2) - 0.25);
      expect([x.entry_t, x.entry, x.stop]).toEqual([x.entry_t, ES.o[x.f]!, stop]);
    }
    const closeAt = (i: number) => nyMinute(ES.t[i]! + 60) === 16 * 60;
    heldTo(ES, 60, 0.25, got.trades, (x) => ({ dir: 1, stop: x.stop, target: es(x.entry + 2 * (x.entry - x.stop)), closeAt }), ['session_end']);
  });

  it('skips an entry whose swing low is not below its fill, and fills the first trade by hand', () => {
    // Each skipped signal: a VWAP cross whose swing low stood at or above the next open.
    const v = vwap(ES.t, ES.h, ES.l, ES.c, ES.v, tradingDay('cme'));
    const signals = Array.from({ length: ES.length - 1 }, (_, i) => i).filter((i) => {
      const m = nyMinute(ES.t[i]! + 60);
      return i > 0 && m >= 570 && m < 960 && ES.c[i]! > v[i]! && ES.c[i - 1]! <= v[i - 1]!;
    });
    const taken = new Set(got.trades.map((x) => x.f - 1));
    const refused = signals.filter((i) => !taken.has(i) && !(es(swingLow(ES, i, 2) - 0.25) < ES.o[i + 1]!));
    expect(got.skipped).toBe(refused.length);
    expect(got.skipped).toBeGreaterThan(0);
    // 2013-10-07: the 09:41 New York bar closes above VWAP. The last swing low known at its close is 09:37's 1668.50
    // (09:35 at 1669.75 and 09:36 at 1669.00 before it, 09:38 and 09:39 at 1669.00 after; 09:40's 1668.25 is not
    // known as one until two bars after it close). Stop a tick under, 1668.25; in at the 09:42 open, 1670.75; the
    // 2R target, 1670.75 + 2 x 2.50 = 1675.75, is reached at 10:09.
    expect(got.trades[0]).toMatchObject({ entry_t: Date.parse('2013-10-07T13:42Z') / 1000, entry: 1670.75, stop: 1668.25, exit: 1675.75, why: 'target', r: 2 });
  });
});

describe('the other side of the range and a multiple of it (ES 1m)', () => {
  const got = trades('ES 1m: trade the 15 minute opening range breakout both ways, stop beyond the other side of the range, target 1.5 times the range, out by the close.', ES);

  it('puts the stop a tick beyond the far side and the target 1.5 ranges beyond the fill, each way', () => {
    expect(new Set(got.trades.map((x) => x.side))).toEqual(new Set(['long', 'short']));
    for (const x of got.trades) {
      const r = openingRange(ES, nyDay(x.entry_t), 15);
      const d = x.side === 'long' ? 1 : -1;
      expect(x.stop).toBe(d > 0 ? r.lo - 0.25 : r.hi + 0.25);
    }
    heldTo(ES, 60, 0.25, got.trades, (x) => {
      const r = openingRange(ES, nyDay(x.entry_t), 15);
      const d = x.side === 'long' ? 1 : -1;
      return { dir: d, stop: x.stop, target: es(x.entry + d * 1.5 * (r.hi - r.lo)), closeAt: (i) => nyMinute(ES.t[i]! + 60) === 16 * 60 };
    }, ['session_close']);
  });
});

describe('exits at a Bollinger band (BTC and ETH 1m)', () => {
  const btc = stretch(BTC, '2017-09-03', '2017-09-05');

  it('buys a touch of the lower band and sells at the next open after a touch of the middle band, or at the 1% stop', () => {
    const got = trades('BTC 1m: buy when price tags the lower Bollinger band, stop 1%, exit when price tags the middle band.', btc);
    expect(got.trades.length).toBeGreaterThan(20);
    const touches = (i: number, level: number) => btc.l[i]! <= level && btc.h[i]! >= level;
    for (const x of got.trades) expect(touches(x.f - 1, band(btc, x.f - 1, 20, 2).lower)).toBe(true);
    heldTo(btc, 60, 0.01, got.trades, (x) => ({ dir: 1, stop: cents(x.entry * 0.99), target: NaN, rule: (i) => touches(i, band(btc, i, 20, 2).middle) }));
  });

  it('shorts the upper band and takes profit at the lower band, read again at each close', () => {
    const eth = stretch(ETH, '2018-04-04', '2018-04-06');
    const got = trades('ETH 1m: short when price tags the upper Bollinger band, stop 1%, target the lower Bollinger band.', eth);
    expect(got.trades.length).toBeGreaterThan(20);
    expect(got.trades.filter((x) => x.why === 'target').length).toBeGreaterThan(5);
    heldTo(eth, 60, 0.01, got.trades, (x) => ({ dir: -1, stop: cents(x.entry * 1.01), target: (i) => band(eth, i, 20, 2).lower }));
  });
});

describe('a trailing stop with no other stop, on the five-minute chart (ETH)', () => {
  const eth5 = resample(stretch(ETH, '2017-09-03', '2017-09-05'), 60, 300).bars;
  const words = 'ETH five-minute chart: buy when price crosses above VWAP, trailing stop 1.5 ATR(14).';

  it('reads the trailing stop as the stop it starts, and the chart in words', () => {
    const reading = readRule(words);
    expect(reading.timeframe).toMatchObject({ status: 'read', value: '5m' });
    expect(reading.stop).toMatchObject({ status: 'read', value: { kind: 'distance', distance: { unit: 'atr', n: 1.5, period: 14 } } });
    expect(reading.exit).toMatchObject({ status: 'read', value: { trail: { kind: 'distance', distance: { unit: 'atr', n: 1.5, period: 14 } } } });
  });

  it('starts 1.5 ATR(14) under the fill and trails 1.5 ATR(14) under the best high since, out only at the stop', () => {
    const got = trades(words, eth5);
    expect(got.trades.length).toBeGreaterThan(5);
    const a = atr(eth5.h, eth5.l, eth5.c, 14);
    for (const x of got.trades) expect(x.stop).toBe(cents(x.entry - 1.5 * a[x.f - 1]!));
    heldTo(eth5, 300, 0.01, got.trades, (x) => ({ dir: 1, stop: x.stop, target: NaN, trail: (i, best) => cents(best - 1.5 * a[i]!) }));
    // no target, no time: out at the stop where it started, or where it trailed to
    expect(got.trades.every((x) => ['stop', 'trail', 'end_of_data'].includes(x.why))).toBe(true);
    expect(got.trades.some((x) => x.why === 'trail')).toBe(true);
  });
});

describe('a take without the word profit (BTC 1m)', () => {
  it('takes 1.2% and stops at 0.5%, both from the fill', () => {
    const btc = stretch(BTC, '2017-09-03', '2017-09-05');
    const got = trades('BTC 1m: long when price crosses above the 20 EMA, stop 0.5%, take 1.2%.', btc);
    expect(got.trades.length).toBeGreaterThan(20);
    const e = ema(btc.c, 20);
    for (const x of got.trades) {
      const k = x.f - 1;
      expect(btc.c[k]! > e[k]! && btc.c[k - 1]! <= e[k - 1]!).toBe(true);
      expect(x.stop).toBe(cents(x.entry * 0.995));
    }
    heldTo(btc, 60, 0.01, got.trades, (x) => ({ dir: 1, stop: x.stop, target: cents(x.entry * 1.012) }));
  });
});

describe('a bare city as the clock of a window (ES 1m)', () => {
  it('trades between 08:45 and 10:30 Chicago, flat at the window end', () => {
    const got = trades('ES 1m between 08:45 and 10:30 Chicago: buy when price crosses above VWAP, stop 2 points, take 4 points.', ES);
    expect(got.ir.session).toMatchObject({ zone: 'America/Chicago', windows: [{ from: 525, to: 630 }] });
    expect(got.trades.length).toBeGreaterThan(2);
    const chicago = wallMinute('America/Chicago');
    for (const x of got.trades) {
      const close = chicago(x.entry_t);
      expect(close > 525 && close <= 630).toBe(true);
    }
    heldTo(ES, 60, 0.25, got.trades, (x) => ({ dir: 1, stop: x.entry - 2, target: x.entry + 4, closeAt: (i) => chicago(ES.t[i]! + 60) === 630 }), ['session_end']);
  });
});
