import type { Span } from '../engine/calendar.js';
import { MARKETS, TIMEFRAME_SECONDS, TIMEFRAMES, type Market, type Timeframe } from '../engine/markets.js';
import { vouchedRuns } from '../engine/spacing.js';
import type { CandleRow } from '../core/tape-wire.js';
import { heldOf, type DayDoc, type DaySummary, type TapeDays } from './tape-days.js';

const DAY_S = 86_400;
const dayOf = (t: number) => new Date(Math.floor(t / DAY_S) * DAY_S * 1000).toISOString().slice(0, 10);
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

/** Who vouched for bars the archive keeps: the venue, an imported file, or the sample shipped with the deck. */
export type Origin = 'venue' | 'import' | 'sample';
export const ORIGINS = ['sample', 'import', 'venue'] as const satisfies readonly Origin[];

/** What the archive keeps of a window: the bars, the stretches of history it holds around them, and the sample's. */
export interface Kept {
  rows: CandleRow[];
  held: Span[];
  /** The held stretches the shipped sample vouched for (a window reaching into one is answered with the sample's bars). */
  sample: Span[];
}

/** A stretch of history the archive holds, and who vouched for it. */
export interface HeldWindow {
  from: number;
  to: number;
  source: Origin;
}

/** What the archive holds of one market and timeframe: its bars, and the windows of history they stand in. */
export interface HeldTape {
  market: Market;
  tf: Timeframe;
  bars: number;
  windows: HeldWindow[];
}

/**
 * How long what the archive holds is taken as read: its own writes show at once, another process's (an import, another
 * deck on the same database) once this long has passed since the archive last looked.
 */
export const HELD_FRESH_MS = 10_000;

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

/** The parts of a held stretch, each with who vouched for it: the sample's, an import's, and the venue's (the rest). */
function sourcesOf(held: Span, sample: readonly Span[], imported: readonly Span[]): HeldWindow[] {
  const marked = [...sample.map((s) => ({ ...s, source: 'sample' as const })), ...imported.map((s) => ({ ...s, source: 'import' as const }))]
    .filter((s) => s.to > held.from && s.from < held.to)
    .sort((a, b) => a.from - b.from);
  const out: HeldWindow[] = [];
  let at = held.from;
  for (const m of marked) {
    const from = Math.max(at, m.from);
    const to = Math.min(held.to, m.to);
    if (from > at) out.push({ from: at, to: from, source: 'venue' });
    if (to > from) out.push({ from, to, source: m.source });
    at = Math.max(at, to);
  }
  if (at < held.to) out.push({ from: at, to: held.to, source: 'venue' });
  return out;
}

/** The windows of a market and timeframe's days: each day's held stretches by source, touching ones of one source joined. */
function windowsOf(days: readonly DaySummary[]): HeldWindow[] {
  const pieces = days.flatMap((d) => d.held.flatMap((h) => sourcesOf(h, d.sample, d.imported))).sort((a, b) => a.from - b.from);
  const out: HeldWindow[] = [];
  for (const p of pieces) {
    const last = out.at(-1);
    if (last && last.source === p.source && p.from <= last.to) last.to = Math.max(last.to, p.to);
    else out.push({ ...p });
  }
  return out;
}

/**
 * Every bar the deck has once seen, kept per market, timeframe and UTC day (the store's tape days). Writers read a
 * day afresh under its lock, add and write it whole, so two writers (two decks, or an import) never lose each other's
 * bars. The past does not change: a bar already kept is never overwritten by a later answer.
 */
export class TapeArchive {
  /** What the archive holds, as last read (frozen: the same value until something changes), and when it was read. */
  private holding: { read: number; held: Promise<readonly HeldTape[]> } | null = null;

  constructor(
    private readonly days: TapeDays,
    private readonly clock: () => number = Date.now,
  ) {}

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
      held.push(...heldOf(doc, tf));
      sample.push(...(doc.sample ?? []));
    }
    return { rows, held: mergeSpans(held), sample: mergeSpans(sample) };
  }

  /** Whether the archive keeps any day of any market and timeframe. */
  holdsAny(): Promise<boolean> {
    return this.days.holdsAny();
  }

  /**
   * What the archive holds, per market and timeframe (in the markets' and timeframes' own order): its bars and the
   * windows of history it holds, each with who vouched for it. Read again once HELD_FRESH_MS have passed, or at once
   * after this archive kept something; the same frozen value is answered until then.
   */
  held(): Promise<readonly HeldTape[]> {
    const now = this.clock();
    if (this.holding && now - this.holding.read < HELD_FRESH_MS) return this.holding.held;
    const held = this.days.summaries().then((days) => {
      const out: HeldTape[] = [];
      for (const market of MARKETS) {
        for (const tf of TIMEFRAMES) {
          const own = days.filter((d) => d.market === market && d.tf === tf);
          const windows = windowsOf(own);
          if (windows.length > 0) out.push(Object.freeze({ market, tf, bars: own.reduce((n, d) => n + d.bars, 0), windows }));
        }
      }
      return Object.freeze(out);
    });
    // A failed read is not kept: the next ask reads again.
    this.holding = { read: now, held };
    held.catch(() => {
      if (this.holding?.held === held) this.holding = null;
    });
    return held;
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
   * them), marked as the sample's or an import's when one is their origin; answers how many bars were new.
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
    let changed = false;
    for (const [day, fresh] of days) {
      const start = dayStart(day);
      const span = vouched && { from: Math.max(vouched.from, start), to: Math.min(vouched.to, start + DAY_S) };
      added += await this.days.update(market, tf, day, (doc) => {
        const seen = new Set(doc.rows.map((r) => r[0]));
        const news = fresh.filter((r) => !seen.has(r[0]) && seen.add(r[0]));
        const vouchedHere = span && span.to > span.from ? [span] : [];
        const held = mergeSpans([...heldOf(doc, tf), ...vouchedHere]);
        const sample = mergeSpans([...(doc.sample ?? []), ...(origin === 'sample' ? vouchedHere : [])]);
        const imported = mergeSpans([...(doc.imported ?? []), ...(origin === 'import' ? vouchedHere : [])]);
        if (news.length === 0 && sameSpans(held, heldOf(doc, tf)) && sameSpans(sample, doc.sample ?? []) && sameSpans(imported, doc.imported ?? [])) return null;
        const rowsNow = [...doc.rows, ...news].sort((a, b) => a[0] - b[0]);
        changed = true;
        return { doc: { rows: rowsNow, held, ...(sample.length ? { sample } : {}), ...(imported.length ? { imported } : {}) }, added: news.length };
      });
    }
    // What the archive holds has changed: it is read again at the next ask.
    if (changed) this.holding = null;
    return added;
  }

  /**
   * Keeps an imported file's bars (or the sample's): the file vouches for each of its stretches, from its first bar to
   * the close of its last, a stretch ending where more than a day of open market passes between two bars. A file of
   * days months apart (the shipped sample's) holds those days, not the months between them.
   */
  async import(market: Market, tf: Timeframe, rows: readonly CandleRow[], origin: 'import' | 'sample' = 'import'): Promise<number> {
    const len = TIMEFRAME_SECONDS[tf];
    let added = 0;
    for (const run of vouchedRuns(market, rows.map((r) => r[0]), len)) {
      const part = rows.slice(run.from, run.to);
      added += await this.keep(market, tf, part, { from: part[0]![0], to: part[part.length - 1]![0] + len }, origin);
    }
    return added;
  }
}
