import type { Bars } from '../bars.js';
import { trueRange } from '../indicators/atr.js';

/** Wilder's ATR look-back, and how many bars each ATR reads (the look-back's warm-up and then some). */
export const ATR_N = 14;
export const ATR_WINDOW = 150;

/**
 * Wilder's ATR(14) at bar j, computed from only the ATR_WINDOW bars that end at j (NaN when fewer precede it):
 * the arithmetic of indicators/atr.ts run over bars[j − 149 .. j], whose first bar has no previous close.
 * Why a window: an ATR run from the start of whatever history the caller holds depends, however faintly, on
 * where that history starts. Reading a fixed window makes every envelope a function of a fixed stretch of bars,
 * so issuing at t from the archive's last few thousand bars and from all of it gives the same bytes. After 136
 * smoothing steps the seed weighs (13/14)^136 ≈ 4e-5, so this is the chart's ATR(14) to about four digits.
 * Written as atr()'s two loops over the window rather than atr() over a view, because the walk takes two per issue
 * and atr() allocates its whole series; a test holds the two to the same bits.
 */
export function windowAtr(bars: Bars, j: number): number {
  const from = j - ATR_WINDOW + 1;
  if (from < 0 || j >= bars.length) return NaN;
  const { h, l, c } = bars;
  let avg = h[from]! - l[from]!;
  for (let i = from + 1; i < from + ATR_N; i++) avg += trueRange(h[i]!, l[i]!, c[i - 1]!);
  avg /= ATR_N;
  const w = 1 / ATR_N;
  const keep = 1 - w;
  for (let i = from + ATR_N; i <= j; i++) avg = w * trueRange(h[i]!, l[i]!, c[i - 1]!) + keep * avg;
  return avg;
}
