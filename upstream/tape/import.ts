import { readBarsCsv, tuplesFromBars } from '../../engine/bars.js';
import { TIMEFRAME_SECONDS, type Market, type Timeframe } from '../../engine/markets.js';
import { lengthWords, typicalSpacing } from '../../engine/spacing.js';
import type { TapeArchive } from '../../store/tape-archive.js';

/** What an import did: the bars read and how many of them were new to the archive, or why nothing was kept. */
export type Imported =
  | { ok: true; read: number; added: number; first: number | null; last: number | null }
  | { ok: false; why: string; lines: string[] };

/**
 * Keeps bars from CSV text (header t,o,h,l,c,v; t the open in unix seconds, UTC) in the archive, as
 * `npm run tape -- import` does and the sample tape is seeded: every row is checked, and the bars must be tf apart
 * as a rule; a file with any bad row or the wrong spacing keeps nothing.
 */
export async function importBarsCsv(archive: TapeArchive, text: string, market: Market, tf: Timeframe, origin: 'import' | 'sample' = 'import'): Promise<Imported> {
  const read = readBarsCsv(text, TIMEFRAME_SECONDS[tf]);
  if (!read.ok) {
    return { ok: false, why: `${read.refused.length} bad line(s), nothing imported`, lines: read.refused.slice(0, 20).map((r) => `line ${r.line}: ${r.reason}`) };
  }
  // Every t on the grid is not enough: hourly bars sit on the 5m grid too. The bars must be tf apart, as a rule.
  const spacing = typicalSpacing(read.bars.t);
  if (spacing !== null && spacing !== TIMEFRAME_SECONDS[tf]) {
    return { ok: false, why: `the bars are ${lengthWords(spacing)} apart (most common spacing ${spacing} s), not ${tf}; nothing imported`, lines: [] };
  }
  const rows = tuplesFromBars(read.bars);
  const added = await archive.import(market, tf, rows, origin);
  return { ok: true, read: rows.length, added, first: rows[0]?.[0] ?? null, last: rows.at(-1)?.[0] ?? null };
}
