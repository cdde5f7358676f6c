import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { allocBars, readBarsCsv, type Bars } from '../../engine/bars.js';
import { runsOf } from '../../engine/spacing.js';

const DAY = 86_400;
const SAMPLE = new URL('../../tape/sample/', import.meta.url);

/**
 * Real bars shipped inside the repository, in tape/sample/ with their licence and provenance, e.g. sampleFile('ETH-1m').
 * A name the sample does not hold is an error naming those it does: a test that needs other bars builds them from
 * these, or is skipped saying why (skipBecause), never left to fail on a missing file.
 */
export function sampleFile(name: string): Bars {
  const url = new URL(`${name}.csv`, SAMPLE);
  if (!existsSync(url)) {
    const held = readdirSync(SAMPLE).filter((f) => f.endsWith('.csv')).map((f) => f.slice(0, -4));
    throw new Error(`the shipped sample (tape/sample/) holds no ${name}.csv, only ${held.join(', ')}: build the bars the test needs from these, or skip it saying why (skipBecause in test/support/skip.ts)`);
  }
  const read = readBarsCsv(readFileSync(url, 'utf8'));
  if (!read.ok) throw new Error(`tape/sample/${name}.csv refused: ${JSON.stringify(read.refused.slice(0, 3))}`);
  return read.bars;
}

/** Bars from index `from` to `to` (exclusive) of a series: views of its arrays, not copies. */
export function barsBetween(bars: Bars, from: number, to: number): Bars {
  return { length: to - from, t: bars.t.subarray(from, to), o: bars.o.subarray(from, to), h: bars.h.subarray(from, to), l: bars.l.subarray(from, to), c: bars.c.subarray(from, to), v: bars.v.subarray(from, to) };
}

/** The bars of a series opening in [from, to) (unix seconds). */
export function barsIn(bars: Bars, from: number, to: number): Bars {
  const first = bars.t.findIndex((t) => t >= from);
  const end = bars.t.findIndex((t) => t >= to);
  return barsBetween(bars, first < 0 ? bars.length : first, end < 0 ? bars.length : end);
}

/**
 * A series cut into the stretches its source holds whole: the sample's crypto files are days far apart (months,
 * years), and a series stepped or forecast across such a gap would read a year's move as one bar's.
 */
export const stretchesOf = (bars: Bars): Bars[] => runsOf(bars.t, DAY).map((r) => barsBetween(bars, r.from, r.to));

/** A shipped file cut into the stretches its source holds whole (stretchesOf). */
export const sampleStretches = (name: string): Bars[] => stretchesOf(sampleFile(name));

/** Whether every bar of a series opens one bar length after the one before (no minute without a trade, no hole). */
export const gapless = (bars: Bars, len: number): boolean => bars.t.every((t, i) => i === 0 || t - bars.t[i - 1]! === len);

/**
 * A longer series built from stretches of shipped bars, deterministically: the stretches end to end, each moved by
 * whole days to begin the day after the one before ends (so every bar keeps its time of day) and its prices scaled to
 * open at that one's close (volumes as they are), then all of them again, from where they ended, until it holds
 * `length` bars (each stretch once when not given). Every move from one bar to the next is a real one but where two
 * stretches meet; it is not a real market's history, and whoever shows a figure from it says so.
 */
export function stitched(stretches: readonly Bars[], length?: number): Bars {
  const n = length ?? stretches.reduce((sum, s) => sum + s.length, 0);
  const out = allocBars(n);
  const dayOf = (t: number) => Math.floor(t / DAY) * DAY;
  for (let k = 0, s = 0; k < n; s++) {
    const part = stretches[s % stretches.length]!;
    const shift = k === 0 ? 0 : dayOf(out.t[k - 1]!) + DAY - dayOf(part.t[0]!);
    const scale = k === 0 ? 1 : out.c[k - 1]! / part.o[0]!;
    for (let i = 0; i < part.length && k < n; i++, k++) {
      out.t[k] = part.t[i]! + shift;
      out.o[k] = part.o[i]! * scale;
      out.h[k] = part.h[i]! * scale;
      out.l[k] = part.l[i]! * scale;
      out.c[k] = part.c[i]! * scale;
      out.v[k] = part.v[i]!;
    }
  }
  return out;
}

/** A month of minutes: 31 days, 44,640 bars. */
export const MONTH_BARS = 31 * 1440;

/**
 * A month (MONTH_BARS) of 1m bars without a hole, stitched from the stretches of a series in which every
 * minute traded: a series that is such a month already (or longer) answers its own first month, unchanged.
 */
export const monthOf = (minutes: Bars): Bars => stitched(stretchesOf(minutes).filter((s) => gapless(s, 60)), MONTH_BARS);

/**
 * A month of a shipped file's minutes, stitched from its days in which every minute traded (monthOf): for what needs
 * a month without a hole (a forecaster's look-back read in any way, answers of 20,000 bars).
 */
export const stitchedMonth = (name: string): Bars => monthOf(sampleFile(name));
