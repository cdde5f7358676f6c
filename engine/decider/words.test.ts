import { describe, expect, it } from 'vitest';
import { sampleFile } from '../../test/support/tape-file.js';
import type { Bars } from '../bars.js';
import { atr, ema, rsi, sma } from '../indicators/index.js';
import { MARKET_SPECS } from '../markets.js';
import { readRule } from '../reader/index.js';
import type { Zone } from '../reader/schema.js';
import { resample } from '../resample.js';
import { DEFAULT_COSTS, slippageOf } from '../stepper/costs.js';
import type { Trade } from '../stepper/envelope.js';
import { rehearse } from '../stepper/rehearse.js';
import { seedHash } from './canonical.js';
import { compileDecider } from './compile.js';
import { freshState, PHASE } from './contract.js';
import { irOf, type DeciderIR } from './ir.js';
import { inWords } from './plain.js';
import { scriptOfReading, type Script } from './script.js';
import { seriesOf, type MarkInput } from './series.js';
import { noteUnsaid } from './unsaid.js';

// Every word of the reader's vocabulary (engine/reader/vocabulary.ts, VOCABULARY.md) against the code the forge makes
// of it, on real bars: each rule is read from words, forged, and run over the shipped sample (ES, a CME week of
// October 2013, on summer time; BTC, Coinbase minutes of nine days, 2016 to 2018), and what the code does is
// compared bar by bar (entries) or trade by trade (stops and exits) with the word's definition computed here from
// the bars alone. A word whose code did something else than its definition fails its test.

const ES1 = sampleFile('ES-1m');
const ES5 = resample(ES1, 60, 300).bars;
const BTC1 = sampleFile('BTC-1m');
const VERSION = 'words.test.v1';
const MIN = 60;
const DAY = 86_400;

interface Forged {
  script: Script;
  ir: DeciderIR;
  seed: string;
}

/** Words read by the embedded reader and forged: every part must read. */
function forgeOf(words: string): Forged {
  const got = scriptOfReading(readRule(words));
  if (!got.ok) throw new Error(`${words}: ${got.message}`);
  const ir = irOf(got.script);
  return { script: got.script, ir, seed: seedHash(ir, VERSION) };
}

/** The bars whose close arms an entry from flat, each with its direction (1 long, -1 short). */
function armed(words: string, bars: Bars, marks: MarkInput[] = []): Map<number, number> {
  const { ir, seed } = forgeOf(words);
  const decider = compileDecider(ir, seed, VERSION);
  const s = seriesOf(ir, bars, marks);
  const out = new Map<number, number>();
  for (let i = 1; i < bars.length; i++) {
    const st = freshState();
    decider.decide(i, st, s);
    if (st.phase === PHASE.ARMED) out.set(i, st.dir);
  }
  return out;
}

/** What the words define, bar by bar: the direction a bar's close arms, from the bars alone. */
function defined(bars: Bars, from: number, test: (i: number) => number): Map<number, number> {
  const out = new Map<number, number>();
  for (let i = Math.max(from, 1); i < bars.length; i++) {
    const d = test(i);
    if (d !== 0) out.set(i, d);
  }
  return out;
}

/** The code arms exactly where the definition does, and the definition holds on some bars but not all. */
function agrees(code: Map<number, number>, definition: Map<number, number>, bars: Bars): void {
  expect(definition.size).toBeGreaterThan(0);
  expect(definition.size).toBeLessThan(bars.length - 1);
  const diff = [...new Set([...code.keys(), ...definition.keys()])].filter((i) => code.get(i) !== definition.get(i)).slice(0, 5);
  expect(diff.map((i) => ({ t: new Date(bars.t[i]! * 1000).toISOString(), code: code.get(i) ?? 0, words: definition.get(i) ?? 0 }))).toEqual([]);
}

/** The rule's trades over the bars, with the index of each one's fill bar and exit bar. */
function tradesOf(words: string, bars: Bars): { forged: Forged; trades: (Trade & { f: number; x: number })[] } {
  const forged = forgeOf(words);
  const { ir, seed } = forged;
  const r = rehearse(ir, compileDecider(ir, seed, VERSION), bars, { seed, nullRuns: 10 });
  const at = new Map(Array.from(bars.t, (t, i) => [t, i]));
  expect(r.trades.length).toBeGreaterThan(5);
  // The bar a trade left in at its open or inside its range: the one opening at exit_t (-1 for an exit at a close).
  return { forged, trades: r.trades.map((x) => ({ ...x, f: at.get(x.entry_t)!, x: at.get(x.exit_t) ?? -1 })) };
}

const above = (a: number, b: number) => a > b;
const cross = (a: (i: number) => number, b: (i: number) => number, i: number, dir: 1 | -1) =>
  dir * a(i) > dir * b(i) && dir * a(i - 1) <= dir * b(i - 1);

// ---- independent definitions of the levels, from the bars -----------------------------------------------------

/** The wall clock of a zone, read with Intl (not the deck's own daylight-saving rules): minute of the local day. */
function wallClock(zone: Zone): (t: number) => number {
  const format = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const offsets = new Map<number, number>();
  return (t) => {
    const hour = Math.floor(t / 3600);
    let offset = offsets.get(hour);
    if (offset === undefined) {
      const parts = Object.fromEntries(format.formatToParts(new Date(hour * 3600_000)).map((p) => [p.type, p.value]));
      offset = ((Number(parts.hour) * 60 + Number(parts.minute) - ((hour * 60) % 1440)) + 1440 * 2) % 1440;
      offsets.set(hour, offset);
    }
    return (Math.floor(t / 60) + offset) % 1440;
  };
}

/** Is the bar's close inside [from, to) on the zone's clock (through midnight when from > to)? */
function gate(bars: Bars, tf: number, zone: Zone, from: string, to: string): (i: number) => boolean {
  const clock = wallClock(zone);
  const m = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3));
  const [a, b] = [m(from), m(to)];
  return (i) => {
    const x = clock(bars.t[i]! + tf);
    return a < b ? x >= a && x < b : x >= a || x < b;
  };
}

/** The highest high (or lowest low) of the n bars before bar i. */
const extremeBefore = (x: Float64Array, n: number, sign: 1 | -1) => (i: number) => {
  if (i < n) return NaN;
  let best = x[i - 1]!;
  for (let j = i - n; j < i; j++) if (sign * x[j]! > sign * best) best = x[j]!;
  return best;
};

/** Each bar's trading day: the UTC day for crypto; for the CME the day opening 17:00 Chicago (22:00 UTC in summer). */
const utcDayOf = (t: number) => Math.floor(t / DAY);
const cmeSummerDayOf = (t: number) => Math.floor((t + 2 * 3600) / DAY);

/**
 * The high, low or close of the trading day just before each bar's own day (the day before, or Friday before a
 * Monday on the CME): NaN when the tape holds no bar of that day (the first day, or across a gap in the tape).
 */
function priorDay(bars: Bars, dayOf: (t: number) => number, field: 'high' | 'low' | 'close'): (i: number) => number {
  const days: { key: number; h: number; l: number; c: number }[] = [];
  for (let i = 0; i < bars.length; i++) {
    const key = dayOf(bars.t[i]!);
    if (days.at(-1)?.key !== key) days.push({ key, h: -Infinity, l: Infinity, c: NaN });
    const d = days.at(-1)!;
    d.h = Math.max(d.h, bars.h[i]!);
    d.l = Math.min(d.l, bars.l[i]!);
    d.c = bars.c[i]!;
  }
  const byKey = new Map(days.map((d, k) => [d.key, k]));
  return (i) => {
    const key = dayOf(bars.t[i]!);
    const d = days[byKey.get(key)! - 1];
    // Day numbers count from Thursday 1970-01-01: a Monday's is 4 mod 7, and the CME day before it is Friday's.
    const before = dayOf === cmeSummerDayOf && key % 7 === 4 ? key - 3 : key - 1;
    return !d || d.key !== before ? NaN : field === 'high' ? d.h : field === 'low' ? d.l : d.c;
  };
}

/**
 * The opening range's high or low: over the bars opening in [open, open + minutes) of the latest day whose open
 * has come (weekdays only for the CME), known from the close of its last bar; NaN before that and on a day with
 * no bar in its range.
 */
function openingRange(bars: Bars, tf: number, openOf: (t: number) => number | null, minutes: number, field: 'high' | 'low'): (i: number) => number {
  return (i) => {
    const t = bars.t[i]!;
    const open = openOf(t);
    if (open === null) return NaN;
    const end = open + minutes * MIN;
    if (t + tf < end) return NaN;
    let v = NaN;
    for (let j = i; j >= 0 && bars.t[j]! >= open; j--) {
      if (bars.t[j]! >= end) continue;
      const x = field === 'high' ? bars.h[j]! : bars.l[j]!;
      if (!(field === 'high' ? x <= v : x >= v)) v = x;
    }
    return v;
  };
}
/** The latest 09:30 New York (13:30 UTC in the ES tape's summer time) on a weekday at or before t. */
const cashOpenBefore = (t: number): number | null => {
  for (let day = utcDayOf(t); day > utcDayOf(t) - 7; day--) {
    const weekday = new Date(day * DAY * 1000).getUTCDay();
    const open = day * DAY + 13 * 3600 + 30 * MIN;
    if (weekday !== 0 && weekday !== 6 && open <= t) return open;
  }
  return null;
};
const utcMidnightBefore = (t: number): number => utcDayOf(t) * DAY;

/** VWAP of the typical price since the trading day began. */
function vwapOf(bars: Bars, dayOf: (t: number) => number): Float64Array {
  const out = new Float64Array(bars.length);
  let key = NaN;
  let pv = 0;
  let v = 0;
  for (let i = 0; i < bars.length; i++) {
    if (dayOf(bars.t[i]!) !== key) [key, pv, v] = [dayOf(bars.t[i]!), 0, 0];
    pv += ((bars.h[i]! + bars.l[i]! + bars.c[i]!) / 3) * bars.v[i]!;
    v += bars.v[i]!;
    out[i] = v > 0 ? pv / v : NaN;
  }
  return out;
}

const ES_SLIP = slippageOf('ES', DEFAULT_COSTS.ES);
const BTC_SLIP = slippageOf('BTC', DEFAULT_COSTS.BTC);
const onTick = (tick: number) => (x: number) => Math.round(x * Math.round(1 / tick)) / Math.round(1 / tick);
const qES = onTick(MARKET_SPECS.ES.tick);
const qBTC = onTick(MARKET_SPECS.BTC.tick);

const ALWAYS = 'around the clock';
const EXITS = 'Stop 0.5%. Target 2R.';

describe('comparisons', () => {
  const c = (i: number) => BTC1.c[i]!;
  const e9 = ema(BTC1.c, 9);
  const e20 = ema(BTC1.c, 20);
  const e21 = ema(BTC1.c, 21);

  it('above: the subject is above the other at the bar\'s close', () => {
    agrees(armed(`BTC 1 minute chart, ${ALWAYS}: go long when the close is above the 20 EMA. ${EXITS}`, BTC1), defined(BTC1, 0, (i) => (above(c(i), e20[i]!) ? 1 : 0)), BTC1);
  });

  it('below: the subject is below the other at the bar\'s close', () => {
    const s50 = sma(BTC1.c, 50);
    agrees(armed(`BTC 1 minute chart, ${ALWAYS}: go short when price is below the 50 SMA. ${EXITS}`, BTC1), defined(BTC1, 0, (i) => (c(i) < s50[i]! ? -1 : 0)), BTC1);
  });

  it('crosses above and crosses below: at or below (above) at the close before, above (below) at this close', () => {
    const words = `BTC 1 minute chart, ${ALWAYS}, long and short: go long when the 9 EMA crosses above the 21 EMA, go short when the 9 EMA crosses below the 21 EMA. ${EXITS}`;
    const a = (i: number) => e9[i]!;
    const b = (i: number) => e21[i]!;
    agrees(armed(words, BTC1), defined(BTC1, 1, (i) => (cross(a, b, i, 1) ? 1 : cross(a, b, i, -1) ? -1 : 0)), BTC1);
  });

  it('crosses, with no direction: long on a cross up, short on a cross down', () => {
    const vwap = vwapOf(BTC1, utcDayOf);
    const w = (i: number) => vwap[i]!;
    const words = `BTC 1 minute chart, ${ALWAYS}: long and short when the close crosses the VWAP. ${EXITS}`;
    agrees(armed(words, BTC1), defined(BTC1, 1, (i) => (cross(c, w, i, 1) ? 1 : cross(c, w, i, -1) ? -1 : 0)), BTC1);
  });

  it('breaks above: the bar\'s high goes above the level, where the high of the bar before had not', () => {
    const words = 'ES 1 minute chart, cash session: buy when price breaks above the 60 minute opening range high. Stop 2 points. Target 2R.';
    const orh = openingRange(ES1, 60, cashOpenBefore, 60, 'high');
    const cash = gate(ES1, 60, 'America/New_York', '09:30', '16:00');
    const code = armed(words, ES1);
    agrees(code, defined(ES1, 1, (i) => (cash(i) && ES1.h[i]! > orh(i) && ES1.h[i - 1]! <= orh(i - 1) ? 1 : 0)), ES1);
    // 2013-10-10: the range high 1674.75; the 14:36 UTC bar's high 1675.25 trades through it (its close, 1674.25,
    // does not), so it arms and the entry fills at the next open, 14:37, not after a close above the level.
    const bar = Array.from(ES1.t).indexOf(Date.parse('2013-10-10T14:36:00Z') / 1000);
    expect([orh(bar), ES1.h[bar], ES1.c[bar]]).toEqual([1674.75, 1675.25, 1674.25]);
    expect(code.get(bar)).toBe(1);
    const { trades } = tradesOf(words, ES1);
    const thatDay = trades.find((x) => x.entry_t >= Date.parse('2013-10-10T00:00:00Z') / 1000)!;
    expect(thatDay).toMatchObject({ entry_t: Date.parse('2013-10-10T14:37:00Z') / 1000, entry: qES(1674.25 + ES_SLIP) });
    // On five-minute bars the same break arms at the close of the 14:35 bar and fills at 14:40.
    const five = tradesOf(words.replace('1 minute', '5 minute'), ES5).trades;
    expect(five.find((x) => x.entry_t >= Date.parse('2013-10-10T00:00:00Z') / 1000)!.entry_t).toBe(Date.parse('2013-10-10T14:40:00Z') / 1000);
  });

  it('breaks below: the bar\'s low goes below the level, where the low of the bar before had not', () => {
    const pdl = priorDay(BTC1, utcDayOf, 'low');
    const words = `BTC 1 minute chart, ${ALWAYS}: go short when price breaks below the prior day low. ${EXITS}`;
    // A day's level is the one in force for the bar read; the bar before is held to it too (at a new day, the new level).
    agrees(armed(words, BTC1), defined(BTC1, 1, (i) => (BTC1.l[i]! < pdl(i) && BTC1.l[i - 1]! >= pdl(i) ? -1 : 0)), BTC1);
  });

  it('breaks, of a range: through its top long, through its bottom short; both on one bar, neither', () => {
    const words = 'ES 1 minute chart, cash session: long or short on a break of the 30 minute opening range. Stop 2 points. Target 2R.';
    const [hi, lo] = [openingRange(ES1, 60, cashOpenBefore, 30, 'high'), openingRange(ES1, 60, cashOpenBefore, 30, 'low')];
    const cash = gate(ES1, 60, 'America/New_York', '09:30', '16:00');
    agrees(
      armed(words, ES1),
      defined(ES1, 1, (i) => {
        if (!cash(i)) return 0;
        const up = ES1.h[i]! > hi(i) && ES1.h[i - 1]! <= hi(i - 1);
        const down = ES1.l[i]! < lo(i) && ES1.l[i - 1]! >= lo(i - 1);
        return up === down ? 0 : up ? 1 : -1;
      }),
      ES1,
    );
  });

  it('touches: the bar\'s range, low to high, reaches the level', () => {
    const words = `BTC 1 minute chart, ${ALWAYS}: go long when price pulls back to the 20 EMA. ${EXITS}`;
    agrees(armed(words, BTC1), defined(BTC1, 0, (i) => (BTC1.l[i]! <= e20[i]! && BTC1.h[i]! >= e20[i]! ? 1 : 0)), BTC1);
  });

  it('between A and B: above A and below B', () => {
    const r14 = rsi(BTC1.c, 14);
    const words = `BTC 1 minute chart, ${ALWAYS}: go long when RSI(14) is between 40 and 60. ${EXITS}`;
    agrees(armed(words, BTC1), defined(BTC1, 0, (i) => (r14[i]! > 40 && r14[i]! < 60 ? 1 : 0)), BTC1);
  });
});

describe('operands', () => {
  it('the highest high of the last N bars: of the N bars before this one, this one left out', () => {
    const hh = extremeBefore(BTC1.h, 20, 1);
    const words = `BTC 1 minute chart, ${ALWAYS}: go long when price breaks above the highest high of the last 20 bars. ${EXITS}`;
    agrees(armed(words, BTC1), defined(BTC1, 1, (i) => (BTC1.h[i]! > hh(i) && BTC1.h[i - 1]! <= hh(i - 1) ? 1 : 0)), BTC1);
  });

  it('the lowest low of the last N bars', () => {
    const ll = extremeBefore(BTC1.l, 20, -1);
    const words = `BTC 1 minute chart, ${ALWAYS}: go short when price breaks below the lowest low of the last 20 bars. ${EXITS}`;
    agrees(armed(words, BTC1), defined(BTC1, 1, (i) => (BTC1.l[i]! < ll(i) && BTC1.l[i - 1]! >= ll(i - 1) ? -1 : 0)), BTC1);
  });

  it('the prior day high and close on a CME market: the last whole CME day, 17:00 to 16:00 Chicago', () => {
    const c = (i: number) => ES1.c[i]!;
    const pdh = priorDay(ES1, cmeSummerDayOf, 'high');
    const pdc = priorDay(ES1, cmeSummerDayOf, 'close');
    agrees(
      armed(`ES 1 minute chart, ${ALWAYS}: go long when the close crosses above the prior day high. Stop 2 points. Target 2R.`, ES1),
      defined(ES1, 1, (i) => (cross(c, () => pdh(i), i, 1) ? 1 : 0)),
      ES1,
    );
    agrees(
      armed(`ES 1 minute chart, ${ALWAYS}: go short when price crosses below yesterday's close. Stop 2 points. Target 2R.`, ES1),
      defined(ES1, 1, (i) => (cross(c, () => pdc(i), i, -1) ? -1 : 0)),
      ES1,
    );
  });

  it('the opening range on crypto: the first N minutes of the UTC day', () => {
    const orh = openingRange(BTC1, 60, utcMidnightBefore, 60, 'high');
    const words = `BTC 1 minute chart, ${ALWAYS}: go long when price breaks above the 60 minute opening range high. ${EXITS}`;
    agrees(armed(words, BTC1), defined(BTC1, 1, (i) => (BTC1.h[i]! > orh(i) && BTC1.h[i - 1]! <= orh(i - 1) ? 1 : 0)), BTC1);
  });

  it('VWAP on a CME market: the typical price weighted by volume since 17:00 Chicago', () => {
    const vwap = vwapOf(ES1, cmeSummerDayOf);
    const words = `ES 1 minute chart, ${ALWAYS}: go long when the close crosses above VWAP. Stop 2 points. Target 2R.`;
    agrees(armed(words, ES1), defined(ES1, 1, (i) => (cross((j) => ES1.c[j]!, (j) => vwap[j]!, i, 1) ? 1 : 0)), ES1);
  });

  it('my level and my zone: any of the trader\'s marks of that shape will do', () => {
    const levels: MarkInput[] = [
      { kind: 'level', price: 1670 },
      { kind: 'level', price: 1690 },
      { kind: 'zone', price: 1655, price2: 1660 },
    ];
    const brokeLevel = (i: number, p: number) => ES1.h[i]! > p && ES1.h[i - 1]! <= p;
    agrees(
      armed(`ES 1 minute chart, ${ALWAYS}: go long when price breaks above my level. Stop 2 points. Target 2R.`, ES1, levels),
      defined(ES1, 1, (i) => (brokeLevel(i, 1670) || brokeLevel(i, 1690) ? 1 : 0)),
      ES1,
    );
    agrees(
      armed(`ES 1 minute chart, ${ALWAYS}: go short when price touches my zone. Stop 2 points. Target 2R.`, ES1, levels),
      defined(ES1, 0, (i) => (ES1.l[i]! <= 1660 && ES1.h[i]! >= 1655 ? -1 : 0)),
      ES1,
    );
  });

  it('the previous bar\'s high: the bar before the one read', () => {
    const words = `BTC 1 minute chart, ${ALWAYS}: go long when price breaks above the previous bar high. Stop below the signal bar low. Target 2R.`;
    agrees(armed(words, BTC1), defined(BTC1, 2, (i) => (BTC1.h[i]! > BTC1.h[i - 1]! && BTC1.h[i - 1]! <= BTC1.h[i - 2]! ? 1 : 0)), BTC1);
  });
});

describe('sessions: a bar whose close falls in the window may arm', () => {
  const e20 = ema(ES1.c, 20);
  const rule = 'go long when the close is above the 20 EMA. Stop 2 points. Target 2R.';
  const cases: [string, Bars, Zone, string, string][] = [
    ['ES 1 minute chart, cash session', ES1, 'America/New_York', '09:30', '16:00'],
    ['ES 1 minute chart, RTH', ES1, 'America/New_York', '09:30', '16:00'],
    ['ES 1 minute chart, first hour', ES1, 'America/New_York', '09:30', '10:30'],
    ['ES 1 minute chart, first 15 minutes', ES1, 'America/New_York', '09:30', '09:45'],
    ['ES 1 minute chart, last hour', ES1, 'America/New_York', '15:00', '16:00'],
    ['ES 1 minute chart, last 30 minutes', ES1, 'America/New_York', '15:30', '16:00'],
    ['ES 1 minute chart, overnight session', ES1, 'America/New_York', '18:00', '09:30'],
    ['ES 1 minute chart, between 9:45 and 11:30 ET', ES1, 'America/New_York', '09:45', '11:30'],
    ['ES 1 minute chart, between 9:45 and 11:30 exchange time', ES1, 'America/New_York', '09:45', '11:30'],
    ['ES 1 minute chart, between 8:30 and 10:00 CT', ES1, 'America/Chicago', '08:30', '10:00'],
    ['ES 1 minute chart, first half hour', ES1, 'America/New_York', '09:30', '10:00'],
    ['ES 1 minute chart, power hour', ES1, 'America/New_York', '15:00', '16:00'],
    ['ES 1 minute chart, extended hours', ES1, 'America/New_York', '18:00', '09:30'],
    ['ES 1 minute chart, cash session, no new trades after 15:00 ET', ES1, 'America/New_York', '09:30', '15:00'],
  ];
  it.each(cases)('%s', (session, bars, zone, from, to) => {
    const inside = gate(bars, 60, zone, from, to);
    agrees(armed(`${session}: ${rule}`, bars), defined(bars, 0, (i) => (inside(i) && bars.c[i]! > e20[i]! ? 1 : 0)), bars);
  });

  const b20 = ema(BTC1.c, 20);
  it.each([
    ['London session', 'Europe/London', '08:00', '16:30'],
    ['13:00-17:00 UTC', 'UTC', '13:00', '17:00'],
  ] as const)('BTC, %s (London keeps its own clock: on summer time in these days, but on 17 December 2017)', (session, zone, from, to) => {
    const inside = gate(BTC1, 60, zone, from, to);
    agrees(armed(`BTC 1 minute chart, ${session}: ${rule.replace('Stop 2 points', 'Stop 0.5%')}`, BTC1), defined(BTC1, 0, (i) => (inside(i) && BTC1.c[i]! > b20[i]! ? 1 : 0)), BTC1);
  });

  it.each([ALWAYS, '24/7'])('%s: every bar may arm', (session) => {
    agrees(armed(`ES 1 minute chart, ${session}: ${rule}`, ES1), defined(ES1, 0, (i) => (ES1.c[i]! > e20[i]! ? 1 : 0)), ES1);
  });

  it('on hourly bars, by the hour bar\'s close', () => {
    const hourly = sampleFile('BTC-1h');
    const h20 = ema(hourly.c, 20);
    const inside = gate(hourly, 3600, 'UTC', '13:00', '17:00');
    agrees(
      armed(`BTC hourly chart, 13:00-17:00 UTC: ${rule.replace('Stop 2 points', 'Stop 0.5%')}`, hourly),
      defined(hourly, 0, (i) => (inside(i) && hourly.c[i]! > h20[i]! ? 1 : 0)),
      hourly,
    );
  });
});

// ---- stops and exits, trade by trade ---------------------------------------------------------------------------

const CROSS = 'ES 1 minute chart, cash session: go long when the 9 EMA crosses above the 21 EMA.';
const BTC_CROSS = `BTC 1 minute chart, ${ALWAYS}: go long when the 9 EMA crosses above the 21 EMA.`;
/** A New York time of a trade's entry day in the ES tape's summer time (UTC-4). */
const nySummer = (t: number, hh: number, mm: number) => utcDayOf(t) * DAY + (hh + 4) * 3600 + mm * MIN;
/**
 * When a scheduled exit due at `due` happens (the stepper's rule): at the close of the first bar closing at or after
 * it, or at the open of the first bar when the market was shut as it came (an early close, a holiday).
 */
function scheduled(bars: Bars, tf: number, due: number): number {
  const j = Array.from(bars.t).findIndex((t) => t + tf >= due);
  return bars.t[j]! >= due ? bars.t[j]! : bars.t[j]! + tf;
}
/** An exit at a stop or trailing stop: at the stop, slippage against, or at an open that gapped through it. */
const stoppedAt = (bars: Bars, x: { x: number; exit: number }, stop: number, slip: number, q: (v: number) => number) =>
  x.exit === q(stop - slip) || (bars.o[x.x]! <= stop && x.exit === q(bars.o[x.x]! - slip));

describe('stops: placed from the entry fill or the level at the signal bar, on the losing side', () => {
  it('points, ticks (the market\'s tick: 0.25 on ES) and percent of the entry', () => {
    for (const x of tradesOf(`${CROSS} Stop 2 points. Target 2R.`, ES1).trades) expect(x.stop).toBe(qES(x.entry - 2));
    for (const x of tradesOf(`ES 1 minute chart, RTH: go long when the 9 EMA crosses above the 21 EMA. Stop 8 ticks. Target 2R.`, ES1).trades) {
      expect(x.stop).toBe(qES(x.entry - 2));
    }
    for (const x of tradesOf(`${BTC_CROSS} Stop 0.5%. Target 2R.`, BTC1).trades) expect(x.stop).toBe(qBTC(x.entry * (1 - 0.005)));
  });

  // The sample holds no NQ or SOL: ES and ETH bars stand in, since only the tick is asked of them here.
  it.each([
    ['Micro Nasdaq', 'ES-1m', 0.25],
    ['ES', 'ES-1m', 0.25],
    ['ETH', 'ETH-1m', 0.01],
    ['SOL', 'ETH-1m', 0.01],
  ] as const)('ticks are the market\'s own: %s', (market, tape, tick) => {
    const q = onTick(tick);
    const { forged, trades } = tradesOf(`${market} 1 minute chart, ${ALWAYS}: go long when the 9 EMA crosses above the 21 EMA. Stop 4 ticks. Target 2R.`, sampleFile(tape));
    expect(MARKET_SPECS[forged.script.market].tick).toBe(tick);
    for (const x of trades) expect(x.stop).toBe(q(x.entry - 4 * tick));
  });

  it('N ATR(n): N times the ATR at the signal bar\'s close', () => {
    const a14 = atr(BTC1.h, BTC1.l, BTC1.c, 14);
    for (const x of tradesOf(`${BTC_CROSS} Stop 2 ATR(14). Target 2R.`, BTC1).trades) expect(x.stop).toBe(qBTC(x.entry - 2 * a14[x.f - 1]!));
  });

  it('a distance below a level, and at or below the signal bar\'s low (one tick below when no distance is given)', () => {
    const orl = openingRange(ES1, 60, cashOpenBefore, 30, 'low');
    const below = tradesOf(`${CROSS} Stop 2 ticks below the 30 minute opening range low. Target 2R.`, ES1).trades;
    for (const x of below) expect(x.stop).toBe(qES(orl(x.f - 1) - 0.5));
    for (const x of tradesOf(`${CROSS} Stop at the signal bar low. Take profit 4 points.`, ES1).trades) expect(x.stop).toBe(ES1.l[x.f - 1]!);
    const words = `BTC 1 minute chart, ${ALWAYS}: go long when price breaks above the previous bar high. Stop below the signal bar low. Target 2R.`;
    for (const x of tradesOf(words, BTC1).trades) expect(x.stop).toBe(qBTC(BTC1.l[x.f - 1]! - 0.01));
  });

  it('breakeven at 1R: once a bar reaches 1R beyond the entry, the stop moves to the entry from the next bar', () => {
    const { trades } = tradesOf(`${CROSS} Stop 2 points. Move stop to breakeven at 1R. Target 3R.`, ES1);
    const reached = (x: (typeof trades)[number]) => {
      for (let j = x.f; j < x.x; j++) if (ES1.h[j]! >= x.entry + (x.entry - x.stop)) return true;
      return false;
    };
    expect(trades.some((x) => x.why === 'breakeven')).toBe(true);
    for (const x of trades) {
      if (x.why === 'breakeven') {
        expect(reached(x)).toBe(true);
        expect(stoppedAt(ES1, x, x.entry, ES_SLIP, qES)).toBe(true);
      }
      if (x.why === 'stop') expect(reached(x)).toBe(false);
    }
  });
});

describe('exits', () => {
  it('a target in R: that many times the entry-to-stop distance beyond the entry; in points: that far', () => {
    const inR = tradesOf(`${CROSS} Stop 2 points. Target 2R.`, ES1).trades.filter((x) => x.why === 'target');
    expect(inR.length).toBeGreaterThan(0);
    for (const x of inR) expect(x.exit === qES(x.entry + 2 * (x.entry - x.stop)) || ES1.o[x.x]! >= x.entry + 2 * (x.entry - x.stop)).toBe(true);
    const inPoints = tradesOf(`${CROSS} Stop at the signal bar low. Take profit 4 points.`, ES1).trades.filter((x) => x.why === 'target');
    expect(inPoints.length).toBeGreaterThan(0);
    for (const x of inPoints) expect(x.exit === qES(x.entry + 4) || ES1.o[x.x]! >= x.entry + 4).toBe(true);
  });

  it('a level target: the level as it stood at the close before the exit bar', () => {
    const pdh = priorDay(ES1, cmeSummerDayOf, 'high');
    const hit = tradesOf(`${CROSS} Stop 2 points. Target the prior day high.`, ES1).trades.filter((x) => x.why === 'target');
    expect(hit.length).toBeGreaterThan(0);
    for (const x of hit) expect(x.exit === pdh(x.x - 1) || ES1.o[x.x]! >= pdh(x.x - 1)).toBe(true);
  });

  it('a trailing stop in points: that far behind the highest high since the entry, as of the close before', () => {
    const { trades } = tradesOf(`${CROSS} Stop 2 points. Trailing stop of 3 points.`, ES1);
    const trailed = trades.filter((x) => x.why === 'trail');
    expect(trailed.length).toBeGreaterThan(0);
    for (const x of trailed) {
      let best = x.entry;
      for (let j = x.f; j < x.x; j++) best = Math.max(best, ES1.h[j]!);
      expect(stoppedAt(ES1, x, qES(best - 3), ES_SLIP, qES)).toBe(true);
    }
  });

  it('a trailing stop in ATRs and in percent: of each close\'s ATR, of the best price', () => {
    const a14 = atr(BTC1.h, BTC1.l, BTC1.c, 14);
    const inAtr = tradesOf(`${BTC_CROSS} Stop 2 ATR(14). Trail by 1 ATR(14).`, BTC1).trades.filter((x) => x.why === 'trail');
    expect(inAtr.length).toBeGreaterThan(0);
    for (const x of inAtr) {
      // The stop only tightens: the highest of the candidates made at each close from the entry bar on.
      let best = x.entry;
      let stop = x.stop;
      for (let j = x.f; j < x.x; j++) {
        best = Math.max(best, BTC1.h[j]!);
        stop = Math.max(stop, qBTC(best - a14[j]!));
      }
      expect(stoppedAt(BTC1, x, stop, BTC_SLIP, qBTC)).toBe(true);
    }
    const inPercent = tradesOf(`${BTC_CROSS} Stop 0.5%. Trailing stop 0.3%. Exit after 2 hours.`, BTC1).trades;
    for (const x of inPercent.filter((y) => y.why === 'trail')) {
      let best = x.entry;
      for (let j = x.f; j < x.x; j++) best = Math.max(best, BTC1.h[j]!);
      expect(stoppedAt(BTC1, x, qBTC(best * (1 - 0.003)), BTC_SLIP, qBTC)).toBe(true);
    }
    // After 2 hours: at the close of the first bar closing 120 minutes or more after the entry.
    const timed = inPercent.filter((y) => y.why === 'time');
    expect(timed.length).toBeGreaterThan(0);
    for (const x of timed) expect(x.exit_t).toBe(scheduled(BTC1, MIN, x.entry_t + 120 * MIN));
  });

  it('after N bars: at the close of the Nth bar of the trade, the entry bar the first', () => {
    const timed = tradesOf(`${CROSS} Stop 2 points. Exit after 10 bars.`, ES1).trades.filter((x) => x.why === 'time');
    expect(timed.length).toBeGreaterThan(0);
    for (const x of timed) {
      expect(x.exit_t).toBe(ES1.t[x.f + 9]! + MIN);
      expect(x.exit).toBe(qES(ES1.c[x.f + 9]! - ES_SLIP));
    }
  });

  it('after N minutes: at the close of the first bar closing N minutes or more after the entry', () => {
    const timed = tradesOf(`${CROSS} Stop 2 points. Get out after 30 minutes.`, ES1).trades.filter((x) => x.why === 'time');
    expect(timed.length).toBeGreaterThan(0);
    for (const x of timed) expect(x.exit_t).toBe(scheduled(ES1, MIN, x.entry_t + 30 * MIN));
  });

  it('flat by a clock time: at the close of the bar that reaches it', () => {
    const clocked = tradesOf(`${CROSS} Stop 5 points. Target 2R. Flat by 15:55 ET.`, ES1).trades.filter((x) => x.why === 'clock');
    expect(clocked.length).toBeGreaterThan(0);
    for (const x of clocked) expect(x.exit_t).toBe(scheduled(ES1, MIN, nySummer(x.entry_t, 15, 55)));
  });

  it('at the close, in a session window: at the close of the bar that ends the window', () => {
    const closed = tradesOf(`${CROSS} Stop 2 points. Exit at the close.`, ES1).trades.filter((x) => x.why === 'session_close');
    expect(closed.length).toBeGreaterThan(0);
    for (const x of closed) expect(x.exit_t).toBe(scheduled(ES1, MIN, nySummer(x.entry_t, 16, 0)));
  });

  it('at the close, around the clock on crypto: at the end of the UTC day', () => {
    const closed = tradesOf(`${BTC_CROSS} Stop 0.5%. Exit by the end of the day.`, BTC1).trades.filter((x) => x.why === 'session_close');
    expect(closed.length).toBeGreaterThan(0);
    for (const x of closed) expect(x.exit_t).toBe(scheduled(BTC1, MIN, (utcDayOf(x.entry_t) + 1) * DAY));
  });

  it('exit when a condition holds: at the next bar\'s open after the bar whose close meets it', () => {
    const e9 = ema(ES1.c, 9);
    const e21 = ema(ES1.c, 21);
    const ruled = tradesOf(`${CROSS} Stop 2 points. Exit when the 9 EMA crosses below the 21 EMA.`, ES1).trades.filter((x) => x.why === 'exit_rule');
    expect(ruled.length).toBeGreaterThan(0);
    for (const x of ruled) {
      expect(cross((i) => e9[i]!, (i) => e21[i]!, x.x - 1, -1)).toBe(true);
      expect(x.exit).toBe(qES(ES1.o[x.x]! - ES_SLIP));
    }
  });

  it('a trail under a line: the stop at the line as it stands at each close, only tightening', () => {
    const e21 = ema(ES1.c, 21);
    const trailed = tradesOf(`${CROSS} Stop 2 points. Trail under the 21 EMA.`, ES1).trades.filter((x) => x.why === 'trail');
    expect(trailed.length).toBeGreaterThan(0);
    for (const x of trailed) {
      let stop = x.stop;
      for (let j = x.f; j < x.x; j++) stop = Math.max(stop, qES(e21[j]!));
      expect(stoppedAt(ES1, x, stop, ES_SLIP, qES)).toBe(true);
    }
  });
});

describe('a session window the words give no time exit for', () => {
  const words = `${CROSS} Stop 2 points. Target 2R.`;

  it('closes a trade still open at the window\'s end at the close of the bar that ends it', () => {
    const { trades } = tradesOf(words, ES1);
    const ended = trades.filter((x) => x.why === 'session_end');
    expect(ended.length).toBeGreaterThan(0);
    for (const x of ended) expect(x.exit_t).toBe(scheduled(ES1, MIN, nySummer(x.entry_t, 16, 0)));
  });

  it('says so in the reading, in the plain words of the code, and not when the words give a time to be out', () => {
    const note = noteUnsaid(readRule(words)).session.note;
    expect(note).toBe('as forged, a trade still open when its session window ends is closed at the close of the bar that ends the window (flat at window end): the words name no time to be out');
    expect(inWords(forgeOf(words).ir)).toContain('Session end: a trade still open when its session window ends is closed at the close of the bar that ends the window (flat at window end)');
    const timed = `${CROSS} Stop 2 points. Exit at the close.`;
    expect(noteUnsaid(readRule(timed)).session.note).toBeUndefined();
    expect(inWords(forgeOf(timed).ir)).not.toContain('flat at window end');
    expect(noteUnsaid(readRule(`${BTC_CROSS} ${EXITS}`)).session.note).toBeUndefined();
  });
});
