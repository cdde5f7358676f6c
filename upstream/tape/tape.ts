import { barsFromTuples, type Bars } from '../../engine/bars.js';
import { closedEnd, expectedBars, type Span } from '../../engine/calendar.js';
import { coverage } from '../../engine/coverage.js';
import { TIMEFRAME_SECONDS, type Market, type Timeframe } from '../../engine/markets.js';
import { resample, wholeBuckets } from '../../engine/resample.js';
import type { Kept, TapeArchive } from '../../store/tape-archive.js';
import { notConfigured, type DeckError } from '../../core/errors.js';
import { TimeframeNotServed, type TapeVenue, type VenueSource } from './venue.js';
import type { CandleRow } from '../../core/tape-wire.js';

/** How long the venue keeps bars (the interface says about seven days). */
export const VENUE_RETENTION_S = 7 * 86_400;

/** Finer timeframes a coarser one can be built from, finest last. */
export const FINER: Readonly<Record<Timeframe, readonly Timeframe[]>> = { '15s': [], '1m': ['15s'], '5m': ['1m', '15s'], '1h': ['1m', '15s'] };

export interface TapeWindow {
  bars: Bars;
  /**
   * venue (or ccxt:<exchange>): the venue answered for this window; archive: the archive of bars kept from the venue
   * or imported; sample: the archive, where some or all of the window's history is the sample of real candles shipped
   * with the deck.
   */
  source: VenueSource | 'archive' | 'sample';
  /** The stretches the source holds history for (coverage reads absent bars outside them as unmeasured). */
  held: Span[];
  built?: { tf: Timeframe; sources: Int32Array; perBar: number };
}

/**
 * The stretch a venue's answer for [from, to) vouches for, from its closed bars: inside the venue's retention it
 * holds the window from `from` (an absent bar there is absent), older than that only from its first bar; either
 * way up to the close of its last closed bar, since a venue that has not printed a bar yet says nothing of it.
 */
function vouchedBy(closed: readonly CandleRow[], len: number, from: number, now: number): Span | null {
  if (closed.length === 0) return null;
  return { from: from >= now - VENUE_RETENTION_S ? from : closed[0]![0], to: closed[closed.length - 1]![0] + len };
}

/**
 * Whether a window's bars are the whole of what can be known of it: every bar the calendar expects is served or
 * known absent (the source held that stretch). The archive answers such a window alone, without the venue.
 */
export const knownWhole =
  (market: Market, tf: Timeframe, from: number, to: number) =>
  (w: TapeWindow): boolean =>
    coverage({ market, tf, from, to, times: w.bars.t, held: w.held }).unmeasured.bars === 0;

/**
 * Where candles come from: the archive of every bar once seen, and the venue's open tape when configured.
 * A past window the archive knows whole is answered from it; otherwise the venue is asked and what it answers
 * is kept (closed bars only, first seen wins, with the stretch it vouched for). A timeframe the venue or the
 * archive lacks is built from a finer one, whole bars only.
 */
export class Tape {
  constructor(
    private readonly archive: TapeArchive,
    private readonly venue: TapeVenue | null,
    private readonly clock: () => number,
  ) {}

  /**
   * Rows of one timeframe and the history held around them, from the archive, or from the venue (its closed bars,
   * kept as they arrive). What the venue answers is read back from the archive unless `fresh`, so a kept bar never
   * changes under a later answer; a bar still forming is never served, fresh or not.
   */
  private async rows(market: Market, tf: Timeframe, from: number, to: number, source: 'archive' | 'venue' | 'fresh'): Promise<Kept> {
    if (source === 'archive') return this.archive.read(market, tf, from, to);
    const sent = await this.venue!.candles(market, tf, from, to);
    const now = this.clock() / 1000;
    const len = TIMEFRAME_SECONDS[tf];
    const closed = sent.filter((r) => r[0] + len <= now);
    const vouched = vouchedBy(closed, len, from, now);
    await this.archive.keep(market, tf, closed, vouched);
    return source === 'fresh' ? { rows: closed, held: vouched ? [vouched] : [], sample: [] } : this.archive.read(market, tf, from, to);
  }

  /**
   * The timeframe asked for, or the first finer one the source has (the archive) or serves (the venue), built into
   * whole bars: a bar the source's history stops inside has not closed as far as anyone here knows, so it is left out.
   */
  private async gather(market: Market, tf: Timeframe, from: number, to: number, source: 'archive' | 'venue' | 'fresh') {
    const len = TIMEFRAME_SECONDS[tf];
    for (const have of [tf, ...FINER[tf]]) {
      // `to` is on the bar grid (closedEnd), so the finer bars up to it are every finer bar of the last bar's span.
      const got = await this.rows(market, have, from, to, source).catch((e: unknown) => (e instanceof TimeframeNotServed ? null : Promise.reject(e)));
      if (got === null || (source === 'archive' && got.rows.length === 0 && !got.held.some((s) => s.to > from && s.from < to))) continue;
      const sample = got.sample.some((s) => s.to > from && s.from < to);
      if (have === tf) return { bars: barsFromTuples(got.rows), held: got.held, sample };
      const built = wholeBuckets(resample(barsFromTuples(got.rows), TIMEFRAME_SECONDS[have], len), len, from, got.held);
      return { bars: built.bars, held: got.held, sample, built: { tf: have, sources: built.sources, perBar: built.perBar } };
    }
    // Nothing held and nothing served (a venue that serves none of the timeframes): nothing is measured.
    return { bars: barsFromTuples([]), held: [] as Span[], sample: false };
  }

  /**
   * The bars of [from, to) as of `to`: those closed by it (a `to` inside a bar stops at that bar's open, closedEnd),
   * so no answer shows a price printed after `to`. `fresh` (a replay session) asks the venue and never answers from the archive.
   * `wholeFromArchive` decides whether the archive's bars are the whole past window (knownWhole, as a rule).
   * With no venue (or one that never serves the market: a CME future on a crypto exchange) the archive answers
   * alone; it is 503 (or the venue's refusal of the market) only when it knows nothing of a window where the calendar
   * expects bars (a window of closed market is answered: nothing was expected).
   */
  async window(market: Market, tf: Timeframe, from: number, asOf: number, fresh: boolean, wholeFromArchive: (w: TapeWindow) => boolean): Promise<TapeWindow> {
    const to = closedEnd(asOf, TIMEFRAME_SECONDS[tf]);
    // Shorter than a bar: no bar of it can close by `to`, and nothing is asked.
    if (to <= from) return { bars: barsFromTuples([]), held: [], source: 'archive' };
    const refused = this.refusal(market);
    const venue = refused ? null : this.venue;
    if (!fresh) {
      const { sample, ...got } = await this.gather(market, tf, from, to, 'archive');
      const w: TapeWindow = { ...got, source: sample ? 'sample' : 'archive' };
      if (wholeFromArchive(w)) return w;
      if (!venue) {
        const knows = w.held.some((s) => s.to > from && s.from < to);
        if (!knows && expectedBars(market, TIMEFRAME_SECONDS[tf], from, to).length > 0) {
          throw refused ?? notConfigured('the venue tape', 'DECK_TAPE_URL (or import bars with npm run tape -- import)');
        }
        return w;
      }
    }
    if (!venue) throw refused ?? notConfigured('the venue tape', 'DECK_TAPE_URL');
    // Read back from the archive, a window may hold bars the sample put there first (first seen wins): it says so.
    const { sample, ...got } = await this.gather(market, tf, from, to, fresh ? 'fresh' : 'venue');
    return { ...got, source: sample ? 'sample' : venue.source };
  }

  /** Why the configured venue can never serve a market, as the refusal to answer; null when it may (or none is configured). */
  refusal(market: Market): DeckError | null {
    return this.venue?.refusal(market) ?? null;
  }

  /** Where bars the archive lacks are asked: the venue's source name, or null when there is none. */
  get venueSource(): VenueSource | null {
    return this.venue?.source ?? null;
  }

  /** Whether a venue is configured that serves the market (its latest bars can be asked for). */
  asksVenue(market: Market): boolean {
    return this.venue !== null && this.refusal(market) === null;
  }
}
