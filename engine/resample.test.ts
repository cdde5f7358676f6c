import { describe, expect, it } from 'vitest';
import { sampleFile } from '../test/support/tape-file.js';
import { barsFromRows, barsToRows, type Bars, type BarRow } from './bars.js';
import { resample, wholeBuckets } from './resample.js';

const utc = (s: string): number => Date.parse(`${s}Z`) / 1000;
const at = (b: Bars, t: number): BarRow & { i: number } => {
  const i = b.t.indexOf(t);
  if (i < 0) throw new Error(`no bar at ${t}`);
  return { i, ...barsToRows(b)[i]! };
};

describe('resample by hand', () => {
  const t0 = utc('2025-03-01T03:00');
  const oneMinute = barsFromRows([
    { t: t0, o: 10, h: 12, l: 9, c: 11, v: 1.5 },
    { t: t0 + 60, o: 11, h: 15, l: 10, c: 14, v: 2.25 },
    { t: t0 + 240, o: 14, h: 14, l: 8, c: 9, v: 0.25 },
    { t: t0 + 300, o: 9, h: 10, l: 9, c: 10, v: 3 },
    { t: t0 + 900, o: 20, h: 21, l: 19, c: 20, v: 1 },
  ]);

  it('takes the first open, highest high, lowest low, last close and summed volume of each aligned bucket', () => {
    const r = resample(oneMinute, 60, 300);
    expect(barsToRows(r.bars)).toEqual([
      { t: t0, o: 10, h: 15, l: 8, c: 9, v: 4 },
      { t: t0 + 300, o: 9, h: 10, l: 9, c: 10, v: 3 },
      { t: t0 + 900, o: 20, h: 21, l: 19, c: 20, v: 1 },
    ]);
    // The 03:10 bucket had no source bar, so it is not made up.
    expect([...r.sources]).toEqual([3, 1, 1]);
    expect(r.perBar).toBe(5);
  });

  it('aligns buckets to the bar length, not to the first bar', () => {
    const r = resample(barsFromRows([{ t: t0 + 120, o: 1, h: 2, l: 1, c: 2, v: 1 }]), 60, 300);
    expect([...r.bars.t]).toEqual([t0]);
  });

  it('builds one hour from 15-second bars and one minute from them', () => {
    const rows: BarRow[] = Array.from({ length: 240 }, (_, i) => ({ t: t0 + 15 * i, o: 100 + i, h: 101 + i, l: 99 + i, c: 100.5 + i, v: 0.5 }));
    const hour = resample(barsFromRows(rows), 15, 3600);
    expect(barsToRows(hour.bars)).toEqual([{ t: t0, o: 100, h: 340, l: 99, c: 339.5, v: 120 }]);
    expect([...hour.sources]).toEqual([240]);
    const minutes = resample(barsFromRows(rows), 15, 60);
    expect(minutes.bars.length).toBe(60);
    expect(barsToRows(minutes.bars)[1]).toEqual({ t: t0 + 60, o: 104, h: 108, l: 103, c: 107.5, v: 2 });
  });

  it('answers nothing for nothing', () => {
    const r = resample(barsFromRows([]), 60, 3600);
    expect(r.bars.length).toBe(0);
    expect(r.sources).toHaveLength(0);
  });

  it('refuses lengths that do not nest, and source bars out of time order', () => {
    expect(() => resample(oneMinute, 60, 90)).toThrow(RangeError);
    expect(() => resample(oneMinute, 300, 60)).toThrow(RangeError);
    expect(() => resample(oneMinute, 60, 60)).toThrow(RangeError);
    const shuffled = barsFromRows([barsToRows(oneMinute)[3]!, barsToRows(oneMinute)[0]!]);
    expect(() => resample(shuffled, 60, 300)).toThrow(/time order/);
  });
});

describe('the whole built bars', () => {
  const t0 = utc('2025-03-20T12:00');
  /** 1m bars from 12:00 to 12:31: the source ends two minutes into the 12:30 bar. */
  const minutes = barsFromRows(Array.from({ length: 32 }, (_, i) => ({ t: t0 + 60 * i, o: 10 + i, h: 11 + i, l: 9 + i, c: 10.5 + i, v: 1 })));

  it('leaves out the bar the source stops inside: 12:30 from 2 of 5 minutes is not a closed bar', () => {
    const all = resample(minutes, 60, 300);
    expect(all.bars.t.at(-1)).toBe(t0 + 1800);
    expect(all.sources.at(-1)).toBe(2);
    const whole = wholeBuckets(all, 300, t0, [{ from: t0, to: t0 + 32 * 60 }]);
    expect([...whole.bars.t]).toEqual(Array.from({ length: 6 }, (_, i) => t0 + 300 * i));
    expect([...whole.sources]).toEqual([5, 5, 5, 5, 5, 5]);
    expect(barsToRows(whole.bars).at(-1)).toEqual({ t: t0 + 1500, o: 35, h: 40, l: 34, c: 39.5, v: 5 });
  });

  it('keeps that bar once the source holds history past it, thin or not', () => {
    const whole = wholeBuckets(resample(minutes, 60, 300), 300, t0, [{ from: t0, to: t0 + 40 * 60 }]);
    expect(whole.bars.t.at(-1)).toBe(t0 + 1800);
    expect(whole.sources.at(-1)).toBe(2);
  });

  it('leaves out a bucket opening before the window, which its bars only partly fill', () => {
    const from = t0 + 120;
    const inWindow = barsFromRows(barsToRows(minutes).filter((r) => r.t >= from));
    const whole = wholeBuckets(resample(inWindow, 60, 300), 300, from, [{ from, to: t0 + 1800 }]);
    expect(whole.bars.t[0]).toBe(t0 + 300);
    expect(whole.bars.length).toBe(5);
  });

  it('leaves out a bucket straddling a stretch the source holds no history for', () => {
    const held = [
      { from: t0, to: t0 + 13 * 60 },
      { from: t0 + 20 * 60, to: t0 + 32 * 60 },
    ];
    const whole = wholeBuckets(resample(minutes, 60, 300), 300, t0, held);
    expect([...whole.bars.t]).toEqual([t0, t0 + 300, t0 + 1200, t0 + 1500]);
  });
});

describe('resample the real tape', () => {
  // Expected values were summed from the CSV with exact decimal arithmetic; volumes agree to float rounding.
  it('BTC 1m (Coinbase, nine days of 2016 to 2018) to 1h matches hand-computed hours', () => {
    const r = resample(sampleFile('BTC-1m'), 60, 3600);
    // 209 hours with a trade; 168 of them traded in every minute (the 2016 minutes are sparse).
    expect(r.bars.length).toBe(209);
    expect(r.sources.filter((n) => n === 60).length).toBe(168);
    const hours: [string, number, number, number, number, number, number][] = [
      ['2016-10-07T00:00', 611.78, 611.96, 611.11, 611.15, 138.33960354, 60],
      ['2017-09-04T12:00', 4419.5, 4503.46, 4357, 4483.69, 920.1937609, 60],
      ['2017-12-17T12:00', 19847.12, 19891.99, 19707.5, 19770.01, 495.683133, 60], // the high of the 2017 run
      ['2018-04-04T16:00', 6785.21, 6900, 6785.21, 6894.01, 564.69479075, 47], // the file's minutes stop at 16:47
      ['2018-04-06T23:00', 6551, 6623, 6522.07, 6619.01, 329.28900595, 60],
    ];
    for (const [when, o, h, l, c, v, minutes] of hours) {
      const bar = at(r.bars, utc(when));
      expect({ o: bar.o, h: bar.h, l: bar.l, c: bar.c }, when).toEqual({ o, h, l, c });
      expect(bar.v).toBeCloseTo(v, 9);
      expect(r.sources[bar.i], when).toBe(minutes);
    }
    expect(r.bars.v.reduce((s, x) => s + x, 0)).toBeCloseTo(94_391.91219332, 6);
  });

  it('ES 1m (Oct 2013) to 1h and 5m: a bucket across the old 15:15 halt is built from 45 minutes', () => {
    const es = sampleFile('ES-1m');
    const hours = resample(es, 60, 3600);
    expect(at(hours.bars, utc('2013-10-07T20:00'))).toMatchObject({ o: 1669.25, h: 1669.5, l: 1666.5, c: 1668, v: 51_583 });
    expect(hours.sources[at(hours.bars, utc('2013-10-07T20:00')).i]).toBe(45);
    expect(at(hours.bars, utc('2013-10-08T13:00'))).toMatchObject({ o: 1670.25, h: 1671.25, l: 1665.25, c: 1670.25, v: 138_902 });
    expect(hours.sources[at(hours.bars, utc('2013-10-08T13:00')).i]).toBe(60);
    const fives = resample(es, 60, 300);
    expect(at(fives.bars, utc('2013-10-08T13:30'))).toMatchObject({ o: 1669, h: 1670.25, l: 1668, c: 1668.5, v: 19_707 });
  });

  it('ES 1m to 1h: the Friday close at 16:15 Chicago, 2013\'s schedule, leaves a 15-minute bar', () => {
    const hours = resample(sampleFile('ES-1m'), 60, 3600);
    const bar = at(hours.bars, utc('2013-10-11T21:00'));
    expect(bar).toMatchObject({ o: 1699.5, h: 1700.25, l: 1699.5, c: 1700, v: 1694 });
    expect(hours.sources[bar.i]).toBe(15);
  });

  it('ES 1m to 1h directly equals 1m to 5m to 1h, and matches a plain grouping of every bucket', () => {
    // Whole contracts: the volumes add up the same in any order.
    const bars = sampleFile('ES-1m');
    const direct = resample(bars, 60, 3600);
    const viaFive = resample(resample(bars, 60, 300).bars, 300, 3600);
    expect(barsToRows(viaFive.bars)).toEqual(barsToRows(direct.bars));

    const groups = new Map<number, BarRow[]>();
    for (const row of barsToRows(bars)) {
      const key = row.t - (row.t % 3600);
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    const plain = [...groups].map(([t, rs]) => ({
      t,
      o: rs[0]!.o,
      h: Math.max(...rs.map((r) => r.h)),
      l: Math.min(...rs.map((r) => r.l)),
      c: rs.at(-1)!.c,
      v: rs.reduce((s, r) => s + r.v, 0),
    }));
    expect(barsToRows(direct.bars)).toEqual(plain);
    expect([...direct.sources]).toEqual([...groups.values()].map((rs) => rs.length));
  });

  it('BTC 1s (Coinbase, Oct 2016, sparse) to 1m: minutes built from the few seconds that traded', () => {
    const r = resample(sampleFile('BTC-1s'), 1, 60);
    const first = at(r.bars, utc('2016-10-07T00:00'));
    expect(first).toMatchObject({ o: 611.78, h: 611.91, l: 611.78, c: 611.9 });
    expect(first.v).toBeCloseTo(1.13872, 9);
    expect(r.sources[first.i]).toBe(2);
    expect(r.sources.reduce((s, n) => s + n, 0)).toBe(11_520);
    expect(r.sources.every((n) => n < 60)).toBe(true);
  });
});
