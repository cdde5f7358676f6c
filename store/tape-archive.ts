import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CandleRow } from '../upstream/tape/wire.js';
import { JsonFile } from './json-file.js';

const DAY_S = 86_400;
const dayOf = (t: number) => new Date(Math.floor(t / DAY_S) * DAY_S * 1000).toISOString().slice(0, 10);

interface DayDoc {
  rows: CandleRow[];
}

/**
 * Every bar the deck has once seen, kept per market, timeframe and UTC day (tape/<market>/<tf>/<day>.json).
 * The past does not change: a bar already kept is never overwritten by a later answer.
 */
export class TapeArchive {
  private readonly days = new Map<string, Promise<JsonFile<DayDoc>>>();

  constructor(private readonly dir: string) {}

  private day(market: string, tf: string, day: string): Promise<JsonFile<DayDoc>> {
    const key = `${market}/${tf}/${day}`;
    let file = this.days.get(key);
    if (!file) {
      file = JsonFile.open<DayDoc>(join(this.dir, 'tape', market, tf), day, () => ({ rows: [] }));
      this.days.set(key, file);
    }
    return file;
  }

  private *daysIn(from: number, to: number): Generator<string> {
    for (let d = Math.floor(from / DAY_S) * DAY_S; d < to; d += DAY_S) yield dayOf(d);
  }

  /** The kept bars with from <= t < to, in time order. */
  async read(market: string, tf: string, from: number, to: number): Promise<CandleRow[]> {
    const out: CandleRow[] = [];
    for (const day of this.daysIn(from, to)) {
      for (const row of (await this.day(market, tf, day)).data.rows) if (row[0] >= from && row[0] < to) out.push(row);
    }
    return out;
  }

  /**
   * The newest bar kept for a market and timeframe, or null when none is: the last row of the latest day file that
   * holds one (days are named YYYY-MM-DD, so their names sort as their dates).
   */
  async newest(market: string, tf: string): Promise<CandleRow | null> {
    const names = await readdir(join(this.dir, 'tape', market, tf)).catch(() => [] as string[]);
    const days = names.filter((n) => /^\d{4}-\d{2}-\d{2}\.json$/.test(n)).map((n) => n.slice(0, 10));
    for (const day of days.sort().reverse()) {
      const rows = (await this.day(market, tf, day)).data.rows;
      if (rows.length > 0) return rows[rows.length - 1]!;
    }
    return null;
  }

  /** Keeps bars not yet kept (first seen wins); answers how many were new. */
  async keep(market: string, tf: string, rows: readonly CandleRow[]): Promise<number> {
    const byDay = new Map<string, CandleRow[]>();
    for (const row of rows) {
      const day = dayOf(row[0]);
      const list = byDay.get(day);
      if (list) list.push(row);
      else byDay.set(day, [row]);
    }
    let added = 0;
    for (const [day, fresh] of byDay) {
      const file = await this.day(market, tf, day);
      const known = new Set(file.data.rows.map((r) => r[0]));
      const news = fresh.filter((r) => !known.has(r[0]));
      if (news.length === 0) continue;
      added += await file.update((d) => {
        const seen = new Set(d.rows.map((r) => r[0]));
        const add = news.filter((r) => !seen.has(r[0]));
        d.rows.push(...add);
        d.rows.sort((a, b) => a[0] - b[0]);
        return add.length;
      });
    }
    return added;
  }
}
