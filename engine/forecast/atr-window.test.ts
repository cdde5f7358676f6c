import { describe, expect, it } from 'vitest';
import { sampleFile } from '../../test/support/tape-file.js';
import { atr } from '../indicators/atr.js';
import { ATR_N, ATR_WINDOW, windowAtr } from './atr-window.js';

describe('the windowed ATR', () => {
  const bars = sampleFile('ES-1m');

  it("is indicators' Wilder ATR(14) run over the 150 bars ending at j, to the bit", () => {
    for (let j = ATR_WINDOW - 1; j < bars.length; j += 97) {
      const from = j - ATR_WINDOW + 1;
      const peer = atr(bars.h.subarray(from, j + 1), bars.l.subarray(from, j + 1), bars.c.subarray(from, j + 1), ATR_N);
      expect(windowAtr(bars, j)).toBe(peer[ATR_WINDOW - 1]);
    }
  });

  it('is NaN until 150 bars stand behind it, and agrees with the ATR over all history to four digits', () => {
    expect(windowAtr(bars, ATR_WINDOW - 2)).toBeNaN();
    const full = atr(bars.h, bars.l, bars.c, ATR_N);
    for (let j = 1000; j < bars.length; j += 997) expect(Math.abs(windowAtr(bars, j) / full[j]! - 1)).toBeLessThan(1e-4);
  });
});
