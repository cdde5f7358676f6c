import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, stat, unlink } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { join } from 'node:path';
import type { Span } from '../engine/calendar.js';
import { MARKETS, TIMEFRAME_SECONDS, TIMEFRAMES, type Market, type Timeframe } from '../engine/markets.js';
import type { CandleRow } from '../core/tape-wire.js';
import { writeAtomic } from './atomic-file.js';

/** One UTC day of one market and timeframe, as the tape archive keeps it. */
export interface DayDoc {
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
  /** The stretches of held that an imported file vouched for (npm run tape -- import); the rest of held is a venue's. */
  imported?: Span[];
}

/** What a day keeps, without its bars: how many there are, and the stretches of history held, by who vouched for them. */
export interface DaySummary {
  market: Market;
  tf: Timeframe;
  day: string;
  bars: number;
  held: Span[];
  sample: Span[];
  imported: Span[];
}

/** The held stretches of a day: as kept, or for a day kept before they were, from its first bar to its last's close. */
export function heldOf(doc: DayDoc, tf: Timeframe): Span[] {
  if (doc.held) return doc.held;
  const { rows } = doc;
  return rows.length ? [{ from: rows[0]![0], to: rows[rows.length - 1]![0] + TIMEFRAME_SECONDS[tf] }] : [];
}

export const summaryOf = (market: Market, tf: Timeframe, day: string, doc: DayDoc): DaySummary => ({
  market,
  tf,
  day,
  bars: doc.rows.length,
  held: heldOf(doc, tf),
  sample: doc.sample ?? [],
  imported: doc.imported ?? [],
});

/** A folder or column naming a market and timeframe the deck serves (anything else under the archive is not a day of it). */
export const isTapeOf = (market: string, tf: string): boolean => (MARKETS as readonly string[]).includes(market) && (TIMEFRAMES as readonly string[]).includes(tf);

/** What a change makes of a day: the day to write and how many bars it added; null: nothing to write. */
export type DayChange = (doc: DayDoc) => { doc: DayDoc; added: number } | null;

/** Where the tape archive keeps its days: files under the data directory, or rows of the database. */
export interface TapeDays {
  /** The days asked, in order, as kept now (a day not kept reads as one without bars). */
  read(market: string, tf: Timeframe, days: readonly string[]): Promise<DayDoc[]>;
  /** Reads a day afresh under a lock every writer takes and writes what `change` makes of it; answers its `added`. */
  update(market: string, tf: Timeframe, day: string, change: DayChange): Promise<number>;
  /** The days kept for a market and timeframe, oldest first. */
  list(market: string, tf: Timeframe): Promise<string[]>;
  /** Whether any day of any market and timeframe is kept. */
  holdsAny(): Promise<boolean>;
  /**
   * Every day kept, of every market and timeframe, without its bars. A day read before and unchanged since is not read
   * again, and a day's bars are not kept in memory for this.
   */
  summaries(): Promise<DaySummary[]>;
}

/** A lock older than this was left by a writer that died: it is taken over. */
const STALE_LOCK_MS = 30_000;
const LOCK_WAIT_MS = 10_000;
/** A day's file in the archive: YYYY-MM-DD.json. */
export const DAY_FILE = /^\d{4}-\d{2}-\d{2}\.json$/;

/** What tells one version of a file from another: a rename makes a new inode, a write a new size or time. */
const signature = (st: Stats) => `${st.ino}/${st.size}/${st.mtimeMs}`;

/**
 * The tape days as files, tape/<market>/<tf>/<day>.json under the data directory. The files are the truth, not this
 * process's copy of them: another process (an import) may write them while the deck runs, so a day is read again
 * whenever its file changed (inode, size or modification time) since it was last read, at the cost of one stat per
 * day a read touches. Writers take a lock file beside the day and write it whole (write-then-rename).
 */
export class FileTapeDays implements TapeDays {
  private readonly files = new Map<string, { sig: string; doc: DayDoc }>();
  private readonly summarized = new Map<string, { sig: string; summary: DaySummary }>();
  private readonly writing = new Map<string, Promise<unknown>>();

  constructor(private readonly dir: string) {}

  private folder(market: string, tf: string) {
    return join(this.dir, 'tape', market, tf);
  }

  read(market: string, tf: Timeframe, days: readonly string[]): Promise<DayDoc[]> {
    return Promise.all(days.map((day) => this.day(market, tf, day)));
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

  async list(market: string, tf: Timeframe): Promise<string[]> {
    const names = await readdir(this.folder(market, tf)).catch(() => [] as string[]);
    return names
      .filter((n) => DAY_FILE.test(n))
      .map((n) => n.slice(0, 10))
      .sort();
  }

  async holdsAny(): Promise<boolean> {
    const tape = join(this.dir, 'tape');
    for (const market of await readdir(tape).catch(() => [] as string[])) {
      for (const tf of await readdir(join(tape, market)).catch(() => [] as string[])) {
        const names = await readdir(join(tape, market, tf)).catch(() => [] as string[]);
        if (names.some((n) => DAY_FILE.test(n))) return true;
      }
    }
    return false;
  }

  async summaries(): Promise<DaySummary[]> {
    const out: DaySummary[] = [];
    const seen = new Set<string>();
    const tape = join(this.dir, 'tape');
    for (const market of (await readdir(tape).catch(() => [] as string[])).sort()) {
      for (const tf of (await readdir(join(tape, market)).catch(() => [] as string[])).sort()) {
        if (!isTapeOf(market, tf)) continue;
        for (const day of await this.list(market as Market, tf as Timeframe)) {
          const path = join(this.folder(market, tf), `${day}.json`);
          const st = await stat(path).catch(() => null);
          if (!st) continue;
          seen.add(path);
          const sig = signature(st);
          const read = this.files.get(path);
          let known = this.summarized.get(path);
          if (known?.sig !== sig) {
            const doc = read?.sig === sig ? read.doc : (JSON.parse(await readFile(path, 'utf8')) as DayDoc);
            this.summarized.set(path, (known = { sig, summary: summaryOf(market as Market, tf as Timeframe, day, doc) }));
          }
          out.push(known.summary);
        }
      }
    }
    for (const path of this.summarized.keys()) if (!seen.has(path)) this.summarized.delete(path);
    return out;
  }

  /** Reads a day afresh under its lock and writes what `change` makes of it (null: nothing to write). */
  update(market: string, tf: Timeframe, day: string, change: DayChange): Promise<number> {
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

/**
 * This process among every process that had its pid: a deck restarted in a container often has its predecessor's pid,
 * and a lock that predecessor left behind must not read as this process's own.
 */
const THIS_PROCESS = `${process.pid} ${randomBytes(8).toString('hex')}`;

/**
 * Takes a lock file (created exclusively, holding the taker's pid and process token), waiting while another live writer
 * holds it; answers its release. A lock whose writer no longer runs (a SIGKILL leaves its lock behind) is taken over at
 * once: its pid names no live process, or names this one with another token. So is one older than STALE_LOCK_MS.
 */
async function lock(path: string): Promise<() => Promise<void>> {
  const started = Date.now();
  for (;;) {
    try {
      const file = await open(path, 'wx');
      await file.writeFile(THIS_PROCESS).finally(() => file.close());
      return () => unlink(path).catch(() => {});
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = await stat(path).catch(() => null);
    if (held && (Date.now() - held.mtimeMs > STALE_LOCK_MS || !(await holderLives(path)))) await unlink(path).catch(() => {});
    else if (Date.now() - started > LOCK_WAIT_MS) throw new Error(`${path}: another writer holds the archive day`);
    else await new Promise((r) => setTimeout(r, 20));
  }
}

/** Whether the process a lock file names still runs; true while the name is not written yet, or not read. */
async function holderLives(path: string): Promise<boolean> {
  const holder = await readFile(path, 'utf8').catch(() => '');
  const pid = Number(holder.split(' ')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return true;
  // This pid is this process's: the lock is its own (another writer of it, waited for) or a predecessor's.
  if (pid === process.pid) return holder === THIS_PROCESS;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it lives, as another user's.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
