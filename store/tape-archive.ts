import type { Span } from '../engine/calendar.js';
import { TIMEFRAME_SECONDS, type Timeframe } from '../engine/markets.js';
import type { CandleRow } from '../core/tape-wire.js';
import type { DayDoc, TapeDays } from './tape-days.js';

const DAY_S = 86_400;
const dayOf = (t: number) => new Date(Math.floor(t / DAY_S) * DAY_S * 1000).toISOString().slice(0, 10);
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

/** Who vouched for bars the archive keeps: the venue, an imported file, or the sample shipped with the deck. */
export type Origin = 'venue' | 'import' | 'sample';

/** What the archive keeps of a window: the bars, the stretches of history it holds around them, and the sample's. */
export interface Kept {
  rows: CandleRow[];
  held: Span[];
  /** The held stretches the shipped sample vouched for (a window reaching into one is answered with the sample's bars). */
  sample: Span[];
}

/** Spans in time order, overlapping or touching ones joined. */
function mergeSpans(spans: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (const s of [...spans].sort((a, b) => a.from - b.from)) {
    const last = out.at(-1);
    if (last && s.from <= last.to) last.to = Math.max(last.to, s.to);
    else if (s.to > s.from) out.push({ ...s });
  }
  return out;
}

const sameSpans = (a: readonly Span[], b: readonly Span[]) => a.length === b.length && a.every((s, i) => s.from === b[i]!.from && s.to === b[i]!.to);

/**
 * Every bar the deck has once seen, kept per market, timeframe and UTC day (the store's tape days). Writers read a
 * day afresh under its lock, add and write it whole, so two writers (two decks, or an import) never lose each other's
 * bars. The past does not change: a bar already kept is never overwritten by a later answer.
 */
export class TapeArchive {
  constructor(private readonly days: TapeDays) {}

  private heldOf(doc: DayDoc, tf: Timeframe): Span[] {
    if (doc.held) return doc.held;
    const { rows } = doc;
    return rows.length ? [{ from: rows[0]![0], to: rows[rows.length - 1]![0] + TIMEFRAME_SECONDS[tf] }] : [];
  }

  private *daysIn(from: number, to: number): Generator<string> {
    for (let d = Math.floor(from / DAY_S) * DAY_S; d < to; d += DAY_S) yield dayOf(d);
  }

  /** The kept bars with from <= t < to, in time order, and the held (and sample) stretches of the days they fall in. */
  async read(market: string, tf: Timeframe, from: number, to: number): Promise<Kept> {
    const rows: CandleRow[] = [];
    const held: Span[] = [];
    const sample: Span[] = [];
    for (const doc of await this.days.read(market, tf, [...this.daysIn(from, to)])) {
      for (const row of doc.rows) if (row[0] >= from && row[0] < to) rows.push(row);
      held.push(...this.heldOf(doc, tf));
      sample.push(...(doc.sample ?? []));
    }
    return { rows, held: mergeSpans(held), sample: mergeSpans(sample) };
  }

  /** Whether the archive keeps any day of any market and timeframe. */
  holdsAny(): Promise<boolean> {
    return this.days.holdsAny();
  }

  /**
   * The newest bar kept for a market and timeframe, or null when none is: the last row of the latest day that holds
   * one (days are named YYYY-MM-DD, so their names sort as their dates).
   */
  async newest(market: string, tf: Timeframe): Promise<CandleRow | null> {
    for (const day of (await this.days.list(market, tf)).reverse()) {
      const [{ rows }] = (await this.days.read(market, tf, [day])) as [DayDoc];
      if (rows.length > 0) return rows[rows.length - 1]!;
    }
    return null;
  }

  /**
   * Keeps bars not yet kept (first seen wins) and the stretch their source vouched for (`vouched`, which holds
   * them), marked as the sample's when the sample is their origin; answers how many bars were new.
   */
  async keep(market: string, tf: Timeframe, rows: readonly CandleRow[], vouched: Span | null, origin: Origin = 'venue'): Promise<number> {
    const days = new Map<string, CandleRow[]>();
    if (vouched) for (const day of this.daysIn(vouched.from, vouched.to)) days.set(day, []);
    for (const row of rows) {
      const day = dayOf(row[0]);
      const list = days.get(day);
      if (list) list.push(row);
      else days.set(day, [row]);
    }
    let added = 0;
    for (const [day, fresh] of days) {
      const start = dayStart(day);
      const span = vouched && { from: Math.max(vouched.from, start), to: Math.min(vouched.to, start + DAY_S) };
      added += await this.days.update(market, tf, day, (doc) => {
        const seen = new Set(doc.rows.map((r) => r[0]));
        const news = fresh.filter((r) => !seen.has(r[0]) && seen.add(r[0]));
        const vouchedHere = span && span.to > span.from ? [span] : [];
        const held = mergeSpans([...this.heldOf(doc, tf), ...vouchedHere]);
        const sample = mergeSpans([...(doc.sample ?? []), ...(origin === 'sample' ? vouchedHere : [])]);
        if (news.length === 0 && sameSpans(held, this.heldOf(doc, tf)) && sameSpans(sample, doc.sample ?? [])) return null;
        const rowsNow = [...doc.rows, ...news].sort((a, b) => a[0] - b[0]);
        return { doc: sample.length ? { rows: rowsNow, held, sample } : { rows: rowsNow, held }, added: news.length };
      });
    }
    return added;
  }

  /** Keeps an imported file's bars: the file vouches for the stretch from its first bar to the close of its last. */
  import(market: string, tf: Timeframe, rows: readonly CandleRow[], origin: 'import' | 'sample' = 'import'): Promise<number> {
    const vouched = rows.length ? { from: rows[0]![0], to: rows[rows.length - 1]![0] + TIMEFRAME_SECONDS[tf] } : null;
    return this.keep(market, tf, rows, vouched, origin);
  }
}
