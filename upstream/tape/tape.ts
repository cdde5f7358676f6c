import { barsFromTuples, type Bars } from '../../engine/bars.js';
import type { Span } from '../../engine/calendar.js';
import { TIMEFRAME_SECONDS, type Market, type Timeframe } from '../../engine/markets.js';
import { resample } from '../../engine/resample.js';
import type { TapeArchive } from '../../store/tape-archive.js';
import { notConfigured } from '../../tools/errors.js';
import { TimeframeNotServed, type VenueTape } from './venue.js';
import type { CandleRow } from './wire.js';

/** How long the venue keeps bars (the interface says about seven days). */
export const VENUE_RETENTION_S = 7 * 86_400;

/** Finer timeframes a coarser one can be built from, finest last. */
const FINER: Readonly<Record<Timeframe, readonly Timeframe[]>> = { '15s': [], '1m': ['15s'], '5m': ['1m', '15s'], '1h': ['1m', '15s'] };

export interface TapeWindow {
  bars: Bars;
  source: 'venue' | 'archive';
  /** The stretches the source holds history for (coverage reads absent bars outside them as unmeasured). */
  held: Span[];
  built?: { tf: Timeframe; sources: Int32Array; perBar: number };
}

const spanOf = (rows: readonly CandleRow[], len: number): Span[] =>
  rows.length ? [{ from: rows[0]![0], to: rows[rows.length - 1]![0] + len }] : [];

/**
 * Where candles come from: the archive of every bar once seen, and the venue's open tape when configured.
 * A past window the archive holds whole is answered from it; otherwise the venue is asked and what it answers
 * is kept (closed bars only, first seen wins). A timeframe the venue or the archive lacks is built from a finer one.
 */
export class Tape {
  constructor(
    private readonly archive: TapeArchive,
    private readonly venue: VenueTape | null,
    private readonly clock: () => number,
  ) {}

  /**
   * Rows of one timeframe from the archive, or from the venue (kept as they arrive, closed bars only). What the
   * venue answers is read back from the archive unless `fresh`, so a kept bar never changes under a later answer.
   */
  private async rows(market: Market, tf: Timeframe, from: number, to: number, source: 'archive' | 'venue' | 'fresh'): Promise<CandleRow[]> {
    if (source === 'archive') return this.archive.read(market, tf, from, to);
    const rows = await this.venue!.candles(market, tf, from, to);
    const now = this.clock() / 1000;
    await this.archive.keep(market, tf, rows.filter((r) => r[0] + TIMEFRAME_SECONDS[tf] <= now));
    return source === 'fresh' ? rows : this.archive.read(market, tf, from, to);
  }

  /** The timeframe asked for, or the first finer one the source has (the archive) or serves (the venue), resampled. */
  private async gather(market: Market, tf: Timeframe, from: number, to: number, source: 'archive' | 'venue' | 'fresh') {
    for (const have of [tf, ...FINER[tf]]) {
      const rows = await this.rows(market, have, from, to, source).catch((e: unknown) => (e instanceof TimeframeNotServed ? null : Promise.reject(e)));
      if (rows === null || (source === 'archive' && rows.length === 0)) continue;
      const len = TIMEFRAME_SECONDS[have];
      if (have === tf) return { bars: barsFromTuples(rows), rows, len };
      const built = resample(barsFromTuples(rows), len, TIMEFRAME_SECONDS[tf]);
      return { bars: built.bars, rows, len, built: { tf: have, sources: built.sources, perBar: built.perBar } };
    }
    return { bars: barsFromTuples([]), rows: [] as CandleRow[], len: TIMEFRAME_SECONDS[tf] };
  }

  /**
   * The bars of [from, to). `fresh` (a replay session) asks the venue and never answers from the archive.
   * `wholeFromArchive` decides whether the archive's bars are the whole past window.
   */
  async window(market: Market, tf: Timeframe, from: number, to: number, fresh: boolean, wholeFromArchive: (w: TapeWindow) => boolean): Promise<TapeWindow> {
    if (!fresh) {
      const kept = await this.gather(market, tf, from, to, 'archive');
      const w: TapeWindow = { bars: kept.bars, source: 'archive', held: spanOf(kept.rows, kept.len), ...(kept.built ? { built: kept.built } : {}) };
      if (!this.venue) {
        if (kept.rows.length === 0) throw notConfigured('the venue tape', 'DECK_TAPE_URL (or import bars with npm run tape -- import)');
        return w;
      }
      if (kept.rows.length > 0 && wholeFromArchive(w)) return w;
    }
    if (!this.venue) throw notConfigured('the venue tape', 'DECK_TAPE_URL');
    const got = await this.gather(market, tf, from, to, fresh ? 'fresh' : 'venue');
    const now = this.clock() / 1000;
    // Inside its retention the venue holds the whole window it answered for; older than that, only what it sent.
    const held = from >= now - VENUE_RETENTION_S ? [{ from, to: Math.min(to, now) }] : spanOf(got.rows, got.len);
    return { bars: got.bars, source: 'venue', held, ...(got.built ? { built: got.built } : {}) };
  }
}
