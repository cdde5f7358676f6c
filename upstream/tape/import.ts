import { readBarsCsv, tuplesFromBars, type Bars } from '../../engine/bars.js';
import type { Span } from '../../engine/calendar.js';
import { TIMEFRAME_SECONDS, type Market, type Timeframe } from '../../engine/markets.js';
import { resample } from '../../engine/resample.js';
import { lengthWords, typicalSpacing, vouchedRuns } from '../../engine/spacing.js';
import type { TapeArchive } from '../../store/tape-archive.js';

/** What an import did: the bars read, how many were new to the archive and the stretches it holds of them, or why nothing was kept. */
export type Imported =
  | { ok: true; read: number; added: number; stretches: Span[] }
  | { ok: false; why: string; lines: string[] };

/** The refusal of a CSV whose rows fail their checks, naming the first bad lines. */
const refusedRows = (refused: { line: number; reason: string }[]): Imported => ({
  ok: false,
  why: `${refused.length} bad line(s), nothing imported`,
  lines: refused.slice(0, 20).map((r) => `line ${r.line}: ${r.reason}`),
});

/**
 * Keeps bars in the archive as an import does: the stretches they hold (vouchedRuns: a file of days months apart holds
 * those days, not the months between them), each vouched for by its origin.
 */
export async function importBars(archive: TapeArchive, bars: Bars, market: Market, tf: Timeframe, origin: 'import' | 'sample'): Promise<Imported> {
  const rows = tuplesFromBars(bars);
  const added = await archive.import(market, tf, rows, origin);
  const len = TIMEFRAME_SECONDS[tf];
  const stretches = vouchedRuns(market, bars.t, len).map((r) => ({ from: bars.t[r.from]!, to: bars.t[r.to - 1]! + len }));
  return { ok: true, read: rows.length, added, stretches };
}

/**
 * Keeps bars from CSV text (header t,o,h,l,c,v; t the open in unix seconds, UTC) in the archive, as
 * `npm run tape -- import` does and the sample tape is seeded: every row is checked, and the bars must be tf apart
 * as a rule; a file with any bad row or the wrong spacing keeps nothing.
 */
export async function importBarsCsv(archive: TapeArchive, text: string, market: Market, tf: Timeframe, origin: 'import' | 'sample' = 'import'): Promise<Imported> {
  const read = readBarsCsv(text, TIMEFRAME_SECONDS[tf]);
  if (!read.ok) return refusedRows(read.refused);
  // Every t on the grid is not enough: hourly bars sit on the 5m grid too. The bars must be tf apart, as a rule.
  const spacing = typicalSpacing(read.bars.t);
  if (spacing !== null && spacing !== TIMEFRAME_SECONDS[tf]) {
    return { ok: false, why: `the bars are ${lengthWords(spacing)} apart (most common spacing ${spacing} s), not ${tf}; nothing imported`, lines: [] };
  }
  return importBars(archive, read.bars, market, tf, origin);
}

/**
 * Keeps 15s bars built from a CSV of 1s bars, the finest the tape serves being 15s: every row is checked and must open
 * on a whole second; a file with any bad row keeps nothing. Seconds without a trade are absent as a rule in such a file
 * (the shipped one trades in about 4% of them), so no spacing is asked of it.
 */
export async function importSecondsCsv(archive: TapeArchive, text: string, market: Market, origin: 'import' | 'sample'): Promise<Imported & { seconds?: number }> {
  const read = readBarsCsv(text, 1);
  if (!read.ok) return refusedRows(read.refused);
  const built = resample(read.bars, 1, TIMEFRAME_SECONDS['15s']).bars;
  return { ...(await importBars(archive, built, market, '15s', origin)), seconds: read.bars.length };
}
