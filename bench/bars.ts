import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readBarsCsv, type Bars } from '../engine/bars.js';
import { barsBetween, gapless, MONTH_BARS, monthOf, sampleFile } from '../test/support/tape-file.js';

// The bars the benchmarks run on. By default the real candles shipped in tape/sample/ (with their licence), so a
// clone benches with nothing beside it. DECK_BENCH_TAPE names a folder of tape files to read instead
// (<market>-<tf>.csv, header t,o,h,l,c,v, as `npm run tape -- import` takes them): longer real history than the
// repository ships, which the forecast's quality needs. Every row says which file it read.

/** The variable naming a folder of longer tape files for the benchmarks. */
export const BENCH_TAPE = 'DECK_BENCH_TAPE';

export interface BenchBars {
  bars: Bars;
  /** Where the bars came from, as a row names it. */
  source: string;
}

const folder = (): string | null => process.env[BENCH_TAPE] || null;
const pathOf = (dir: string, name: string) => resolve(dir, `${name}.csv`);

/** Whether a tape file of that name is there to read: in the DECK_BENCH_TAPE folder when set, else in the sample. */
export function benchHas(name: string): boolean {
  const dir = folder();
  return existsSync(dir ? pathOf(dir, name) : new URL(`../tape/sample/${name}.csv`, import.meta.url));
}

/** A tape file, from the DECK_BENCH_TAPE folder when set (a file missing there is an error naming it), else the sample. */
export function benchFile(name: string): BenchBars {
  const dir = folder();
  if (!dir) return { bars: sampleFile(name), source: `tape/sample/${name}.csv` };
  const path = pathOf(dir, name);
  if (!existsSync(path)) throw new Error(`${BENCH_TAPE} is ${dir}, which holds no ${name}.csv: add it, or unset ${BENCH_TAPE} to bench on the shipped sample`);
  const read = readBarsCsv(readFileSync(path, 'utf8'));
  if (!read.ok) throw new Error(`${path} refused: ${JSON.stringify(read.refused.slice(0, 3))}`);
  return { bars: read.bars, source: `${name}.csv of ${BENCH_TAPE}` };
}

let month: BenchBars | null = null;

/**
 * A stitched series' prices to the cent, as the exchange quotes them: scaled ones carry sixteen digits, which would
 * make every answer, seal and archive day of the benches twice the size of a real month's. Rounding keeps the bars'
 * order (l <= o, c <= h).
 */
function toCents(bars: Bars): Bars {
  for (const side of [bars.o, bars.h, bars.l, bars.c]) side.forEach((p, i) => (side[i] = Math.round(p * 100) / 100));
  return bars;
}

/**
 * A month (31 days, 44,640 bars) of BTC 1m without a hole, which most benchmarks step, chart or serve: the BTC-1m
 * file's first month when it begins with one, else stitched from its days in which every minute traded (the sample
 * has three, each copy scaled to open at the one before's close: real moves, not a real month).
 */
export function benchMonth(): BenchBars {
  if (month) return month;
  const file = benchFile('BTC-1m');
  const first = barsBetween(file.bars, 0, Math.min(MONTH_BARS, file.bars.length));
  month =
    first.length === MONTH_BARS && gapless(first, 60)
      ? { bars: first, source: `the first month of ${file.source}` }
      : { bars: toCents(monthOf(file.bars)), source: `a month stitched from the whole days of ${file.source}` };
  return month;
}

const DAY = 86_400;

/** The first UTC midnight at or after the month's first bar, and the seven days after it (10,080 bars). */
export function benchWeek(): { from: number; to: number; bars: number } {
  const first = benchMonth().bars.t[0]!;
  const from = Math.ceil(first / DAY) * DAY;
  return { from, to: from + 7 * DAY, bars: 7 * 1440 };
}
