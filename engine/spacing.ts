import { openSeconds } from './calendar.js';
import type { Market } from './markets.js';

/**
 * How far apart a series' bars are. The typical gap is the most common one between consecutive open times (the
 * smaller on a tie): a market's halts (a weekend, a daily break) and the holes in its data make some gaps longer,
 * but fewer than the bar length's, so neither they nor a thin stretch can pass for the bar length as a median can.
 */
export function typicalSpacing(t: ArrayLike<number>): number | null {
  const counts = new Map<number, number>();
  for (let i = 1; i < t.length; i++) {
    const gap = t[i]! - t[i - 1]!;
    counts.set(gap, (counts.get(gap) ?? 0) + 1);
  }
  let best: number | null = null;
  let most = 0;
  for (const [gap, n] of counts) {
    if (n > most || (n === most && gap < best!)) {
      best = gap;
      most = n;
    }
  }
  return best;
}

/** A length in seconds as the timeframes write it: 15s, 5m, 1h, 2d; a length that is no whole unit in seconds. */
export function lengthWords(seconds: number): string {
  for (const [unit, size] of [['d', 86_400], ['h', 3600], ['m', 60]] as const) {
    if (seconds >= size && seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}

/**
 * The runs of a series with no gap longer than `longest` between consecutive open times, as index ranges [from, to):
 * a file made of days that are far apart (the shipped sample's) is several runs, each a stretch its source vouched
 * for. A gap is measured by `gap` (seconds from one open time to the next, unless told: the open-market time between
 * them, say, so a CME weekend stays inside its run).
 */
export function runsOf(t: ArrayLike<number>, longest: number, gap: (a: number, b: number) => number = (a, b) => b - a): { from: number; to: number }[] {
  const runs: { from: number; to: number }[] = [];
  let from = 0;
  for (let i = 1; i <= t.length; i++) {
    if (i === t.length || gap(t[i - 1]!, t[i]!) > longest) {
      runs.push({ from, to: i });
      from = i;
    }
  }
  return t.length === 0 ? [] : runs;
}

/**
 * The stretches a file of a market's bars vouches for: its runs with no more than a day of open market between two
 * bars (a CME weekend or holiday stays inside a run; days of a crypto file months apart are runs of their own).
 */
export const vouchedRuns = (market: Market, t: ArrayLike<number>, len: number): { from: number; to: number }[] =>
  runsOf(t, 86_400, (a, b) => openSeconds(market, a + len, b));
