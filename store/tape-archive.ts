import { mkdir, open, readdir, readFile, stat, unlink } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { join } from 'node:path';
import type { Span } from '../engine/calendar.js';
import { TIMEFRAME_SECONDS, type Timeframe } from '../engine/markets.js';
import type { CandleRow } from '../core/tape-wire.js';
import { writeAtomic } from './atomic-file.js';

const DAY_S = 86_400;
const dayOf = (t: number) => new Date(Math.floor(t / DAY_S) * DAY_S * 1000).toISOString().slice(0, 10);
const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

/** A lock older than this was left by a writer that died: it is taken over. */
const STALE_LOCK_MS = 30_000;
const LOCK_WAIT_MS = 10_000;

interface DayDoc {
  rows: CandleRow[];
  /**
   * The stretches of the day a source vouched for: a venue's answer (its window inside its retention, else from its
   * first to its last bar), an imported file (its first to its last bar). An expected bar absent inside them is
   * known to be absent; outside them nothing is known. A day written before this was kept reads as the stretch
   * from its first to its last bar.
   */
  held?: Span[];
  /** The stretches of held that the sample shipped with the deck vouched for: its bars, not a venue's or an import's. */
  sample?: Span[];
}

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

/** What tells one version of a file from another: a rename makes a new inode, a write a new size or time. */
const signature = (st: Stats) => `${st.ino}/${st.size}/${st.mtimeMs}`;

const sameSpans = (a: readonly Span[], b: readonly Span[]) => a.length === b.length && a.every((s, i) => s.from === b[i]!.from && s.to === b[i]!.to);

/**
 * Every bar the deck has once seen, kept per market, timeframe and UTC day (tape/<market>/<tf>/<day>.json).
 * The files are the truth, not this process's copy of them: another process (an import) may write them while the
 * deck runs, so a day is read again whenever its file changed (inode, size or modification time) since it was
 * last read, at the cost of one stat per day file a read touches. Writers take a lock file beside the day, read
 * it afresh, add and write it whole (write-then-rename), so two processes never lose each other's bars.
 * The past does not change: a bar already kept is never overwritten by a later answer.
 */
export class TapeArchive {
  private readonly files = new Map<string, { sig: string; doc: DayDoc }>();
  private readonly writing = new Map<string, Promise<unknown>>();

  constructor(private readonly dir: string) {}

  private folder(market: string, tf: string) {
    return join(this.dir, 'tape', market, tf);
  }

  /** A day as its file holds it now. */
  private async day(market: string, tf: Timeframe, day: string): Promise<DayDoc> {
    const path = join(this.folder(market, tf), `${day}.json`);
    const st = await stat(path).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
    if (!st) return { rows: [] };
    const sig = signature(st);
    const hit = this.files.get(path);
    if (hit?.sig === sig) return hit.doc;
    const doc = JSON.parse(await readFile(path, 'utf8')) as DayDoc;
    this.files.set(path, { sig, doc });
    return doc;
  }

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
    for (const day of this.daysIn(from, to)) {
      const doc = await this.day(market, tf, day);
      for (const row of doc.rows) if (row[0] >= from && row[0] < to) rows.push(row);
      held.push(...this.heldOf(doc, tf));
      sample.push(...(doc.sample ?? []));
    }
    return { rows, held: mergeSpans(held), sample: mergeSpans(sample) };
  }

  /** Whether the archive keeps any day of any market and timeframe. */
  async holdsAny(): Promise<boolean> {
    const tape = join(this.dir, 'tape');
    for (const market of await readdir(tape).catch(() => [] as string[])) {
      for (const tf of await readdir(join(tape, market)).catch(() => [] as string[])) {
        const names = await readdir(join(tape, market, tf)).catch(() => [] as string[]);
        if (names.some((n) => /^\d{4}-\d{2}-\d{2}\.json$/.test(n))) return true;
      }
    }
    return false;
  }

  /**
   * The newest bar kept for a market and timeframe, or null when none is: the last row of the latest day file that
   * holds one (days are named YYYY-MM-DD, so their names sort as their dates).
   */
  async newest(market: string, tf: Timeframe): Promise<CandleRow | null> {
    const names = await readdir(this.folder(market, tf)).catch(() => [] as string[]);
    const days = names.filter((n) => /^\d{4}-\d{2}-\d{2}\.json$/.test(n)).map((n) => n.slice(0, 10));
    for (const day of days.sort().reverse()) {
      const { rows } = await this.day(market, tf, day);
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
      added += await this.update(market, tf, day, (doc) => {
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

  /** Reads a day afresh under its lock and writes what `change` makes of it (null: nothing to write). */
  private update(market: string, tf: Timeframe, day: string, change: (doc: DayDoc) => { doc: DayDoc; added: number } | null): Promise<number> {
    const folder = this.folder(market, tf);
    const path = join(folder, `${day}.json`);
    const work: Promise<number> = (this.writing.get(path) ?? Promise.resolve())
      .catch(() => {})
      .then(async () => {
        await mkdir(folder, { recursive: true });
        const release = await lock(join(folder, `.${day}.json.lock`));
        try {
          const next = change(await this.day(market, tf, day));
          if (!next) return 0;
          await writeAtomic(path, JSON.stringify(next.doc));
          // Under the lock nobody else writes the day, so the file just written is the one this stat sees.
          this.files.set(path, { sig: signature(await stat(path)), doc: next.doc });
          return next.added;
        } finally {
          await release();
        }
      })
      .finally(() => {
        if (this.writing.get(path) === work) this.writing.delete(path);
      });
    this.writing.set(path, work);
    return work;
  }
}

/** Takes a lock file (created exclusively), waiting while another live writer holds it; answers its release. */
async function lock(path: string): Promise<() => Promise<void>> {
  const started = Date.now();
  for (;;) {
    try {
      await (await open(path, 'wx')).close();
      return () => unlink(path).catch(() => {});
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = await stat(path).catch(() => null);
    if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) await unlink(path).catch(() => {});
    else if (Date.now() - started > LOCK_WAIT_MS) throw new Error(`${path}: another writer holds the archive day`);
    else await new Promise((r) => setTimeout(r, 20));
  }
}
