import { describe, expect, it } from 'vitest';
import { allocBars, type Bars } from '../bars.js';
import type { Market, Timeframe } from '../markets.js';
import { ZONES, type Condition, type Session } from '../reader/schema.js';
import { irOf } from './ir.js';
import type { Script } from './script.js';
import { seriesOf } from './series.js';
import { zoneOffset } from './zones.js';

const utc = (y: number, mo: number, d: number, h: number, mi = 0) => Date.UTC(y, mo - 1, d, h, mi) / 1000;

/** Bars at the given open times: bar i opens at 100 + i, spans 99 + i to 101 + i and closes at 100.5 + i. */
function barsAt(times: number[]): Bars {
  const b = allocBars(times.length);
  times.forEach((t, i) => {
    b.t[i] = t;
    b.o[i] = 100 + i;
    b.h[i] = 101 + i;
    b.l[i] = 99 + i;
    b.c[i] = 100.5 + i;
    b.v[i] = 1 + (i % 3);
  });
  return b;
}
const every = (t0: number, n: number, tf = 60) => Array.from({ length: n }, (_, i) => t0 + i * tf);

function scriptOf(market: Market, timeframe: Timeframe, when: Condition, session: Session = { kind: 'always' }, extra: Partial<Script> = {}): Script {
  return {
    version: 'script.v1',
    market,
    timeframe,
    session,
    side: 'long',
    entry: { triggers: [{ side: 'long', when }] },
    stop: { kind: 'distance', distance: { unit: 'points', n: 5 } },
    exit: { time: [{ kind: 'bars', n: 5 }] },
    ...extra,
  };
}
type Level = Extract<Condition, { level: unknown }>['level'];
const touches = (level: Level): Condition => ({ op: 'touches', level });
const above = (n = 1): Condition => ({ op: 'above', left: { kind: 'price', field: 'close' }, right: { kind: 'constant', value: n } });
const window = (zone: 'America/New_York' | 'Europe/London', from: string, to: string): Session => ({ kind: 'windows', zone, windows: [{ from, to }] });

describe('the session series', () => {
  it('open the gate by the bar\'s close and end at the window\'s end, in New York time across daylight saving', () => {
    const ir = irOf(scriptOf('ES', '1m', above(), window('America/New_York', '09:30', '16:00')));
    const winter = barsAt([utc(2024, 1, 16, 14, 28), utc(2024, 1, 16, 14, 29), utc(2024, 1, 16, 20, 58), utc(2024, 1, 16, 20, 59)]);
    const w = seriesOf(ir, winter);
    expect(Array.from(w.session_gate!)).toEqual([0, 1, 1, 0]);
    expect(w.session_end![1]).toBe(utc(2024, 1, 16, 21));
    const summer = barsAt([utc(2024, 7, 16, 13, 28), utc(2024, 7, 16, 13, 29)]);
    const s = seriesOf(ir, summer);
    expect(Array.from(s.session_gate!)).toEqual([0, 1]);
    expect(s.session_end![1]).toBe(utc(2024, 7, 16, 20));
  });

  it('run a window through midnight to its end on the next local day', () => {
    const ir = irOf(scriptOf('NQ', '1m', above(), window('America/New_York', '18:00', '09:30')));
    const bars = barsAt([utc(2024, 1, 16, 22, 58), utc(2024, 1, 16, 22, 59), utc(2024, 1, 17, 3, 0), utc(2024, 1, 17, 13, 0), utc(2024, 1, 17, 14, 29)]);
    const s = seriesOf(ir, bars);
    expect(Array.from(s.session_gate!)).toEqual([0, 1, 1, 1, 0]);
    expect(Array.from(s.session_end!).slice(1, 4)).toEqual([utc(2024, 1, 17, 14, 30), utc(2024, 1, 17, 14, 30), utc(2024, 1, 17, 14, 30)]);
  });

  it('read London time with its own summer time', () => {
    expect(zoneOffset('Europe/London', utc(2024, 3, 31, 0, 59))).toBe(0);
    expect(zoneOffset('Europe/London', utc(2024, 3, 31, 1))).toBe(3600);
    expect(zoneOffset('Europe/London', utc(2024, 10, 27, 0, 59))).toBe(3600);
    expect(zoneOffset('Europe/London', utc(2024, 10, 27, 1))).toBe(0);
    const ir = irOf(scriptOf('ETH', '1m', above(), window('Europe/London', '08:00', '16:30')));
    const s = seriesOf(ir, barsAt([utc(2024, 7, 16, 6, 59), utc(2024, 1, 16, 6, 59), utc(2024, 1, 16, 7, 59)]));
    expect(Array.from(s.session_gate!)).toEqual([1, 0, 1]);
    expect(s.session_end![0]).toBe(utc(2024, 7, 16, 15, 30));
  });

  it("keep every zone's wall clock as Intl keeps it, hour by hour from 2010 to 2030", () => {
    for (const zone of ZONES) {
      const f = new Intl.DateTimeFormat('en-GB', { timeZone: zone, timeZoneName: 'longOffset' });
      const wrong: string[] = [];
      for (let t = utc(2010, 1, 1, 0); t < utc(2030, 1, 1, 0); t += 3600) {
        const name = f.formatToParts(new Date(t * 1000)).find((x) => x.type === 'timeZoneName')!.value;
        const m = /GMT([+-])(\d\d):(\d\d)/.exec(name);
        const offset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60) : 0;
        if (offset !== zoneOffset(zone, t)) wrong.push(new Date(t * 1000).toISOString());
      }
      expect([zone, wrong.slice(0, 3)]).toEqual([zone, []]);
    }
  });

  it("close a window's entries once its clock exit has come round in it, on the clock's own zone", () => {
    const chicagoExit = { exit: { time: [{ kind: 'clock' as const, at: '10:30', zone: 'America/Chicago' as const }] } };
    const ir = irOf(scriptOf('ES', '1m', above(), window('America/New_York', '09:30', '16:00'), chicagoExit));
    // 11:29 and 11:30 New York (10:29, 10:30 Chicago), summer and winter: the bar closing at the clock is closed
    const bars = barsAt([utc(2024, 7, 16, 15, 28), utc(2024, 7, 16, 15, 29), utc(2024, 1, 16, 16, 28), utc(2024, 1, 16, 16, 29), utc(2024, 1, 16, 20, 58)]);
    const s = seriesOf(ir, bars);
    expect(Array.from(s.session_gate!)).toEqual([1, 0, 1, 0, 0]);
    // the window's end is its own still: a close exit would meet it
    expect(s.session_end![1]).toBe(utc(2024, 7, 16, 20));
    // a clock before the window opens closes nothing in it; one in a window through midnight closes its morning
    const early = irOf(scriptOf('ES', '1m', above(), window('America/New_York', '09:30', '16:00'), { exit: { time: [{ kind: 'clock', at: '08:00', zone: 'America/New_York' }] } }));
    expect(Array.from(seriesOf(early, bars).session_gate!)).toEqual([1, 1, 1, 1, 1]);
    const night = irOf(scriptOf('NQ', '1m', above(), window('America/New_York', '18:00', '09:30'), { exit: { time: [{ kind: 'clock', at: '09:00', zone: 'America/New_York' }] } }));
    const overnight = barsAt([utc(2024, 1, 16, 23, 0), utc(2024, 1, 17, 13, 58), utc(2024, 1, 17, 13, 59), utc(2024, 1, 17, 14, 10)]);
    expect(Array.from(seriesOf(night, overnight).session_gate!)).toEqual([1, 1, 0, 0]);
  });

  it('find the next time a clock strikes after each bar opens', () => {
    const ir = irOf(scriptOf('ES', '1m', above(), undefined, { exit: { time: [{ kind: 'clock', at: '15:50', zone: 'America/New_York' }] } }));
    const s = seriesOf(ir, barsAt([utc(2024, 1, 16, 20, 49), utc(2024, 1, 16, 20, 50), utc(2024, 7, 16, 12, 0)]));
    expect(Array.from(s.clock_15_50_america_new_york!)).toEqual([utc(2024, 1, 16, 20, 50), utc(2024, 1, 17, 20, 50), utc(2024, 7, 16, 19, 50)]);
  });
});

describe('structure and bands', () => {
  /** Bars with these lows (highs a point above, closes halfway). */
  const lows = (xs: number[]): Bars => {
    const b = barsAt(every(utc(2024, 1, 16, 14), xs.length));
    xs.forEach((x, i) => {
      b.l[i] = x;
      b.h[i] = x + 1;
      b.o[i] = b.c[i] = x + 0.5;
    });
    return b;
  };

  it('read the last swing low known at each close: below the two before it, not above the two after, known two bars later', () => {
    const ir = irOf(scriptOf('BTC', '1m', above(), undefined, { stop: { kind: 'level', where: 'below', level: { kind: 'swing', field: 'low', strength: 2 } } }));
    //              0    1    2    3    4    5    6    7    8    9
    const bars = lows([10, 9, 8, 7, 8, 9, 7, 7, 8, 9]);
    // 3 is a swing low (7 under 9, 8 before; 8, 9 after), known at 5; 6 ties 7 after it at 7, known at 8
    expect(Array.from(seriesOf(ir, bars).swing_low_2!)).toEqual([NaN, NaN, NaN, NaN, NaN, 7, 7, 7, 7, 7]);
    const strict = lows([10, 9, 8, 7, 8, 9, 6, 7, 8, 9]);
    expect(Array.from(seriesOf(ir, strict).swing_low_2!)).toEqual([NaN, NaN, NaN, NaN, NaN, 7, 7, 7, 6, 6]);
  });

  it('read the Bollinger bands of the closes: the SMA and k population standard deviations', () => {
    const when: Condition = { op: 'touches', level: { kind: 'bollinger', band: 'upper', n: 3, k: 2 } };
    const ir = irOf(scriptOf('BTC', '1m', when));
    const bars = lows([1, 2, 3, 4]);
    // closes 1.5, 2.5, 3.5: mean 2.5, population sd sqrt(2/3)
    const upper = seriesOf(ir, bars).bollinger_3_2_upper!;
    expect(Number.isNaN(upper[1])).toBe(true);
    expect(upper[2]).toBeCloseTo(2.5 + 2 * Math.sqrt(2 / 3), 12);
    expect(upper[3]).toBeCloseTo(3.5 + 2 * Math.sqrt(2 / 3), 12);
  });
});

describe('the price series', () => {
  it('read the highest high of the n bars before the current one', () => {
    const ir = irOf(scriptOf('BTC', '1m', { op: 'breaks_above', level: { kind: 'highest', n: 3 } }));
    const s = seriesOf(ir, barsAt(every(utc(2024, 1, 16, 0), 6)));
    expect(Array.from(s.highest_3!)).toEqual([NaN, NaN, NaN, 103, 104, 105]);
  });

  it('read the prior UTC day for crypto, and skip a first day the bars only partly hold', () => {
    const ir = irOf(scriptOf('BTC', '1h', touches({ kind: 'prior_day', field: 'high' })));
    const whole = seriesOf(ir, barsAt(every(utc(2024, 1, 16, 0), 72, 3600)));
    expect(whole.prior_day_high![23]).toBeNaN();
    expect(whole.prior_day_high![24]).toBe(101 + 23);
    expect(whole.prior_day_high![71]).toBe(101 + 47);
    const cut = seriesOf(ir, barsAt(every(utc(2024, 1, 16, 1), 71, 3600)));
    expect(cut.prior_day_high![23]).toBeNaN();
    expect(cut.prior_day_high![47]).toBe(101 + 46);
  });

  it('read the prior CME day, which starts at 17:00 Chicago', () => {
    const ir = irOf(scriptOf('ES', '1h', touches({ kind: 'prior_day', field: 'close' })));
    // Tuesday's session: Monday 17:00 CST (23:00 UTC) to Tuesday 16:00; then Wednesday's from 23:00 UTC.
    const tuesday = every(utc(2024, 1, 15, 23), 23, 3600);
    const bars = barsAt([...tuesday, utc(2024, 1, 16, 23), utc(2024, 1, 17, 0)]);
    const s = seriesOf(ir, bars);
    expect(s.prior_day_close![22]).toBeNaN();
    expect(s.prior_day_close![23]).toBe(100.5 + 22);
    expect(s.prior_day_close![24]).toBe(100.5 + 22);
  });

  it('form the opening range over the first minutes of the cash session and hold it until the next one forms', () => {
    const ir = irOf(scriptOf('NQ', '1m', touches({ kind: 'opening_range', field: 'high', minutes: 15 })));
    const day1 = every(utc(2024, 1, 16, 14, 25), 36);
    const night = [utc(2024, 1, 17, 2, 0)];
    const day2 = every(utc(2024, 1, 17, 14, 28), 4);
    const bars = barsAt([...day1, ...night, ...day2]);
    const or = seriesOf(ir, bars).opening_range_15_high!;
    // Bars 5..19 open 09:30..09:44; the range holds from the 09:44 bar's close.
    expect(Array.from(or.subarray(0, 19)).every(Number.isNaN)).toBe(true);
    expect(or[19]).toBe(101 + 19);
    expect(or[35]).toBe(101 + 19);
    expect(or[36]).toBe(101 + 19);
    expect(or[38]).toBe(101 + 19);
    expect(or[39]).toBeNaN();
  });

  it('anchor VWAP to the trading day: a CME day starts again at 17:00 Chicago', () => {
    const ir = irOf(scriptOf('ES', '1m', touches({ kind: 'vwap' })));
    const bars = barsAt([utc(2024, 1, 16, 20, 58), utc(2024, 1, 16, 20, 59), utc(2024, 1, 16, 23, 0)]);
    const v = seriesOf(ir, bars).vwap!;
    expect(v[2]).toBeCloseTo((bars.h[2]! + bars.l[2]! + bars.c[2]!) / 3, 10);
    expect(v[1]).not.toBeCloseTo((bars.h[1]! + bars.l[1]! + bars.c[1]!) / 3, 6);
  });
});
