import { describe, expect, it } from 'vitest';
import { atr } from './atr.js';
import { bollinger } from './bollinger.js';
import { ema, emaPair } from './ema.js';
import { highest, lowest } from './extremes.js';
import { rsi } from './rsi.js';
import { sma } from './sma.js';
import { vwap } from './vwap.js';

const f = (...v: number[]): Float64Array => Float64Array.from(v);
const near = (got: Float64Array, want: number[]): void => {
  expect(got.length).toBe(want.length);
  want.forEach((w, i) => (Number.isNaN(w) ? expect(got[i], `index ${i}`).toBeNaN() : expect(got[i], `index ${i}`).toBeCloseTo(w, 12)));
};

describe('indicators on hand-computed series', () => {
  it('SMA averages the last n values and is NaN before n - 1', () => {
    near(sma(f(1, 2, 3, 4, 5, 6), 3), [NaN, NaN, 2, 3, 4, 5]);
    near(sma(f(7, 9), 1), [7, 9]);
  });

  it('EMA is seeded with the SMA of the first n values, then alpha = 2/(n+1)', () => {
    // seed mean(2,4,6) = 4; alpha 0.5: 4 + .5(8-4) = 6; 6 + .5(12-6) = 9; 9 + .5(10-9) = 9.5
    near(ema(f(2, 4, 6, 8, 12, 10), 3), [NaN, NaN, 4, 6, 9, 9.5]);
    near(ema(f(2, 4), 3), [NaN, NaN]);
  });

  it("RSI follows Wilder: seeded with the mean of the first n changes, smoothed by 1/n", () => {
    // changes +1 -0.5 +1 +0.5 -1; seed gain 2/3 loss 1/6 -> RS 4 -> 80; then gain 11/18 loss 2/18 -> RS 5.5; then 11/27 each -> 50
    near(rsi(f(10, 11, 10.5, 11.5, 12, 11), 3), [NaN, NaN, NaN, 80, 100 - 100 / 6.5, 50]);
  });

  it('RSI reads 100 without losses, 0 without gains and 50 when flat', () => {
    near(rsi(f(1, 2, 3, 4), 2), [NaN, NaN, 100, 100]);
    near(rsi(f(4, 3, 2, 1), 2), [NaN, NaN, 0, 0]);
    near(rsi(f(5, 5, 5, 5), 2), [NaN, NaN, 50, 50]);
  });

  it("ATR smooths true range (gaps included) by Wilder's 1/n, the first bar's range being h - l", () => {
    const high = f(10, 11, 13, 12, 16, 9);
    const low = f(8, 9, 10, 11, 12, 7);
    const close = f(9, 10.5, 12, 11.5, 15, 8);
    // true ranges 2, 2, 3, 1, 4.5 (gap up from 11.5), 8 (gap down from 15)
    near(atr(high, low, close, 3), [NaN, NaN, 7 / 3, 17 / 9, 149 / 54, 365 / 81]);
    // A previous close that is not a number leaves the bar's own range: 2, then 3 (not NaN).
    near(atr(f(10, 12, 14), f(8, 9, 10), f(NaN, NaN, 11), 1), [2, 3, 4]);
  });

  it('VWAP of the typical price restarts at each UTC day and waits for volume', () => {
    const day = 86_400;
    const t = f(day - 120, day - 60, day, day + 60);
    const high = f(12, 21, 31, 42);
    const low = f(9, 18, 29, 38);
    const close = f(9, 21, 30, 40);
    const volume = f(1, 3, 0, 2);
    // typical prices 10, 20, 30, 40
    near(vwap(t, high, low, close, volume), [10, 17.5, NaN, 40]);
    near(vwap(t, high, low, close, volume, () => 0), [10, 17.5, 17.5, 25]);
  });

  it('Bollinger bands are the SMA plus and minus k population deviations', () => {
    const b = bollinger(f(1, 2, 3, 4), 3, 2);
    const sd = Math.sqrt(2 / 3);
    near(b.middle, [NaN, NaN, 2, 3]);
    near(b.upper, [NaN, NaN, 2 + 2 * sd, 3 + 2 * sd]);
    near(b.lower, [NaN, NaN, 2 - 2 * sd, 3 - 2 * sd]);
  });

  it('highest and lowest of n bars include the current bar', () => {
    const x = f(3, 1, 4, 1, 5, 9, 2, 6);
    near(highest(x, 3), [NaN, NaN, 4, 4, 5, 9, 9, 9]);
    near(lowest(x, 3), [NaN, NaN, 1, 1, 1, 1, 2, 2]);
    near(highest(x, 1), [...x]);
  });

  it('highest and lowest agree with a plain scan on ties and every look-back', () => {
    let seed = 7;
    const x = Float64Array.from({ length: 400 }, () => ((seed = (seed * 48271) % 2147483647) % 9));
    for (const n of [1, 2, 3, 5, 17, 64, 400, 401]) {
      const hi = highest(x, n);
      const lo = lowest(x, n);
      for (let i = 0; i < x.length; i++) {
        const w = i >= n - 1 ? x.subarray(i - n + 1, i + 1) : undefined;
        expect(hi[i]).toStrictEqual(w ? Math.max(...w) : NaN);
        expect(lo[i]).toStrictEqual(w ? Math.min(...w) : NaN);
      }
    }
  });

  it('emaPair gives each average the very values ema gives, bit for bit, in either order and at any length', () => {
    let seed = 11;
    const x = Float64Array.from({ length: 500 }, () => 100 + ((seed = (seed * 48271) % 2147483647) % 1000) / 7);
    for (const [a, b] of [[9, 21], [21, 9], [1, 2], [5, 5], [3, 499], [3, 500], [3, 501], [600, 2]]) {
      for (const len of [0, 1, 2, 20, 21, 22, 500]) {
        const xs = x.subarray(0, len);
        const [pa, pb] = emaPair(xs, a!, b!);
        expect(Array.from(pa)).toEqual(Array.from(ema(xs, a!)));
        expect(Array.from(pb)).toEqual(Array.from(ema(xs, b!)));
      }
    }
    expect(() => emaPair(f(1, 2), 0, 3)).toThrow(RangeError);
  });

  it('refuses a look-back that is not a whole number of bars', () => {
    expect(() => ema(f(1, 2), 0)).toThrow(RangeError);
    expect(() => sma(f(1, 2), 2.5)).toThrow(RangeError);
    expect(() => bollinger(f(1, 2), 2, 0)).toThrow(RangeError);
  });
});
