import { ATR, BollingerBands, EMA, RSI, SMA, VWAP } from 'trading-signals';
import { describe, expect, it } from 'vitest';
import { sampleFile } from '../../test/support/tape-file.js';
import { atr } from './atr.js';
import { bollinger } from './bollinger.js';
import { ema } from './ema.js';
import { rsi } from './rsi.js';
import { sma } from './sma.js';
import { utcDay, vwap } from './vwap.js';

// Cross-checks on the real BTC 1m bars shipped (Coinbase, nine days of 2016 to 2018: quiet sparse minutes at $610,
// the run to $19,000, and the fall after it) against trading-signals, within 1e-9 relative after warm-up.
const bars = sampleFile('BTC-1m');
const closes = [...bars.c];

/** Compares ours with the peer's answers from index `from` on; the peer answers null (or throws) in its warm-up. */
function agree(ours: Float64Array, peer: (number | null)[], from: number): number {
  let compared = 0;
  for (let i = from; i < ours.length; i++) {
    const want = peer[i];
    if (want === null || want === undefined) continue;
    const got = ours[i]!;
    if (!(Math.abs(got - want) <= 1e-9 * Math.abs(want))) throw new Error(`index ${i}: ours ${got}, peer ${want}`);
    compared++;
  }
  return compared;
}

describe('indicators against trading-signals on BTC-1m', () => {
  it('has the nine days of bars to compare on', () => {
    expect(bars.length).toBe(12_423);
  });

  it('SMA agrees from its first value', () => {
    for (const n of [20, 200]) {
      const peer = new SMA(n).updates(closes, false);
      expect(peer[n - 2]).toBeNull();
      expect(agree(sma(bars.c, n), peer, n - 1)).toBe(bars.length - n + 1);
    }
  });

  // The peer seeds its EMA with the first close, ours with the SMA of the first n closes (the common definition).
  // The seeds' difference decays by (1 - alpha) a bar, so the two agree once 12 (n + 1) bars have passed
  // (a factor of e^-24, about 4e-11, on a seed gap far below 1%).
  it('EMA agrees once the seed has decayed', () => {
    for (const n of [9, 20, 200]) {
      const peer = new EMA(n).updates(closes, false);
      const settled = n - 1 + 12 * (n + 1);
      expect(agree(ema(bars.c, n), peer, settled)).toBe(bars.length - settled);
    }
  });

  it("RSI agrees from its first value: both seed Wilder's averages with the mean of the first n changes", () => {
    for (const n of [2, 14, 50]) {
      const peer = new RSI(n).updates(closes, false);
      expect(peer[n - 1]).toBeNull();
      expect(agree(rsi(bars.c, n), peer, n)).toBe(bars.length - n);
    }
  });

  it('ATR agrees from its first value: both take h - l as the first true range', () => {
    const candles = closes.map((close, i) => ({ high: bars.h[i]!, low: bars.l[i]!, close }));
    for (const n of [1, 14, 100]) {
      const peer = new ATR(n).updates(candles, false);
      expect(agree(atr(bars.h, bars.l, bars.c, n), peer, n - 1)).toBe(bars.length - n + 1);
    }
  });

  it('Bollinger bands agree (population deviation on both sides)', () => {
    const peer = new BollingerBands(20, 2).updates(closes, false);
    const ours = bollinger(bars.c, 20, 2);
    expect(agree(ours.upper, peer.map((p) => p?.upper ?? null), 19)).toBe(bars.length - 19);
    expect(agree(ours.middle, peer.map((p) => p?.middle ?? null), 19)).toBe(bars.length - 19);
    expect(agree(ours.lower, peer.map((p) => p?.lower ?? null), 19)).toBe(bars.length - 19);
  });

  // The peer's VWAP never resets, so it gets a fresh instance at each UTC day.
  it('VWAP agrees day by day', () => {
    const peer: (number | null)[] = [];
    let session = NaN;
    let day = new VWAP();
    for (let i = 0; i < bars.length; i++) {
      if (utcDay(bars.t[i]!) !== session) {
        session = utcDay(bars.t[i]!);
        day = new VWAP();
      }
      peer.push(day.add({ high: bars.h[i]!, low: bars.l[i]!, close: bars.c[i]!, volume: bars.v[i]! }));
    }
    // The peer answers nothing for a bar without volume; ours carries the session's average through it.
    const silent = bars.v.filter((v) => v === 0).length;
    expect(agree(vwap(bars.t, bars.h, bars.l, bars.c, bars.v), peer, 0)).toBe(bars.length - silent);
  });
});
