import type { Bars } from '../bars.js';
import { HORIZON, TOUCH_ATR, TOUCH_WITHIN } from './envelope.js';

/** Read once: the per-bar loops would otherwise go through the module bindings on every use. */
const H = HORIZON;
const SIZES = Float64Array.from(TOUCH_ATR);
const WITHIN = Int32Array.from(TOUCH_WITHIN);

/**
 * What followed bar i, measured from a close and an ATR: the same arithmetic builds the trailing sample (from a
 * past bar's own close and ATR) and scores an issued envelope (from the close and ATR it states). Callers make
 * sure the HORIZON bars after i exist.
 */

/**
 * The nine touch outcomes as a bit mask (bit = size index · 3 + horizon index): whether a high reached
 * close + x·atr or a low reached close − x·atr within the horizon. Either way counts: the envelope has no side.
 * When `reach` is given, the farthest a high or low went from the close within each horizon (in ATR units) is
 * written to it, one per horizon: the continuous measure the mask reads at three sizes.
 */
export function touchMask(bars: Bars, i: number, close: number, atr: number, reach?: Float64Array): number {
  const { h, l } = bars;
  let far = 0;
  let mask = 0;
  let w = 0;
  for (let m = 1; m <= H; m++) {
    const up = h[i + m]! - close;
    const down = close - l[i + m]!;
    if (up > far) far = up;
    if (down > far) far = down;
    if (m === WITHIN[w]) {
      for (let s = 0; s < SIZES.length; s++) if (far >= SIZES[s]! * atr) mask |= 1 << (s * WITHIN.length + w);
      if (reach) reach[w] = far / atr;
      w++;
    }
  }
  return mask;
}

/** |close(i+k) − close| / atr for k = 1..HORIZON, written to out[k − 1]. */
export function closeDistances(bars: Bars, i: number, close: number, atr: number, out: Float64Array): void {
  const { c } = bars;
  for (let k = 1; k <= H; k++) {
    const d = c[i + k]! - close;
    out[k - 1] = (d < 0 ? -d : d) / atr;
  }
}
