import { readFileSync } from 'node:fs';
import { allocBars, readBarsCsv, type Bars } from '../../engine/bars.js';
import { runsOf, typicalSpacing } from '../../engine/spacing.js';

const read = (url: URL, name: string): Bars => {
  const read = readBarsCsv(readFileSync(url, 'utf8'));
  if (!read.ok) throw new Error(`tape file ${name} refused: ${JSON.stringify(read.refused.slice(0, 3))}`);
  return read.bars;
};

/** Real bars shipped inside the repository, in tape/sample/ with their licence and provenance, e.g. sampleFile('ETH-1m'). */
export function sampleFile(name: string): Bars {
  return read(new URL(`../../tape/sample/${name}.csv`, import.meta.url), name);
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
 * A shipped file cut into the stretches its source holds whole: the sample's crypto files are days far apart (months,
 * years), and a series stepped or forecast across such a gap would read a year's move as one bar's.
 */
export function sampleStretches(name: string): Bars[] {
  const bars = sampleFile(name);
  return runsOf(bars.t, 86_400).map((r) => barsBetween(bars, r.from, r.to));
}

/**
 * A longer series built from a shipped file, deterministically: its stretches end to end, each moved in time to open
 * one bar after the one before closes and its prices scaled to open at that one's close (volumes as they are), then
 * the whole again, from where it ended, until it holds `length` bars (all of them once when not given). Every move
 * from one bar to the next is a real one but the three or so where stretches meet; it is not a real market's history,
 * and whoever shows a figure from it says so.
 */
export function stitchedSample(name: string, length?: number): Bars {
  const stretches = sampleStretches(name);
  const len = typicalSpacing(sampleFile(name).t)!;
  const n = length ?? stretches.reduce((sum, s) => sum + s.length, 0);
  const out = allocBars(n);
  for (let k = 0, s = 0; k < n; s++) {
    const part = stretches[s % stretches.length]!;
    const shift = k === 0 ? 0 : out.t[k - 1]! + len - part.t[0]!;
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
