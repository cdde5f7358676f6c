import type { Pool } from 'pg';
import type { Market, Timeframe } from '../../engine/markets.js';
import { isTapeOf, summaryOf, type DayChange, type DayDoc, type DaySummary, type TapeDays } from '../tape-days.js';
import { transact } from './transact.js';

/**
 * The tape days as rows of deck_tape_days, each with a version counted by its writes. A read asks for the versions
 * of the days it needs and the text only of those changed since this deck last read them (past days never change,
 * so a window read again costs one short query); a write takes the day's advisory lock for its transaction, so the
 * day is read and written whole by one writer at a time, even while it has no row yet.
 */
export class PgTapeDays implements TapeDays {
  private readonly cache = new Map<string, { version: number; doc: DayDoc }>();
  private readonly summarized = new Map<string, { version: number; summary: DaySummary }>();

  constructor(private readonly pool: Pool) {}

  async read(market: string, tf: Timeframe, days: readonly string[]): Promise<DayDoc[]> {
    if (days.length === 0) return [];
    const key = (day: string) => `${market}|${tf}|${day}`;
    const { rows } = await this.pool.query<{ day: string; version: string; doc: string | null }>(
      `SELECT t.day, t.version, CASE WHEN t.version IS DISTINCT FROM k.version THEN t.doc END AS doc
         FROM deck_tape_days t JOIN unnest($3::text[], $4::bigint[]) AS k (day, version) ON t.day = k.day
        WHERE t.market = $1 AND t.tf = $2`,
      [market, tf, days, days.map((d) => this.cache.get(key(d))?.version ?? null)],
    );
    const now = new Map<string, DayDoc>();
    for (const r of rows) {
      if (r.doc !== null) this.cache.set(key(r.day), { version: Number(r.version), doc: JSON.parse(r.doc) as DayDoc });
      now.set(r.day, this.cache.get(key(r.day))!.doc);
    }
    return days.map((d) => now.get(d) ?? { rows: [] });
  }

  update(market: string, tf: Timeframe, day: string, change: DayChange): Promise<number> {
    return transact(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`tape|${market}|${tf}|${day}`]);
      const { rows } = await client.query<{ doc: string; version: string }>('SELECT doc, version FROM deck_tape_days WHERE market = $1 AND tf = $2 AND day = $3', [
        market,
        tf,
        day,
      ]);
      const next = change(rows[0] ? (JSON.parse(rows[0].doc) as DayDoc) : { rows: [] });
      if (!next) return 0;
      await client.query(
        `INSERT INTO deck_tape_days (market, tf, day, doc, version) VALUES ($1, $2, $3, $4, 1)
         ON CONFLICT (market, tf, day) DO UPDATE SET doc = excluded.doc, version = deck_tape_days.version + 1`,
        [market, tf, day, JSON.stringify(next.doc)],
      );
      return next.added;
    });
  }

  async list(market: string, tf: Timeframe): Promise<string[]> {
    const { rows } = await this.pool.query<{ day: string }>('SELECT day FROM deck_tape_days WHERE market = $1 AND tf = $2', [market, tf]);
    return rows.map((r) => r.day).sort();
  }

  async summaries(): Promise<DaySummary[]> {
    const key = (r: { market: string; tf: string; day: string }) => `${r.market}|${r.tf}|${r.day}`;
    const { rows } = await this.pool.query<{ market: string; tf: string; day: string; version: string }>(
      'SELECT market, tf, day, version FROM deck_tape_days ORDER BY market, tf, day',
    );
    const kept = rows.filter((r) => isTapeOf(r.market, r.tf));
    // Only the days written since this deck last summed them up are read whole.
    const changed = kept.filter((r) => this.summarized.get(key(r))?.version !== Number(r.version));
    if (changed.length > 0) {
      const fresh = await this.pool.query<{ market: string; tf: string; day: string; version: string; doc: string }>(
        `SELECT t.market, t.tf, t.day, t.version, t.doc FROM deck_tape_days t
           JOIN unnest($1::text[], $2::text[], $3::text[]) AS k (market, tf, day) ON t.market = k.market AND t.tf = k.tf AND t.day = k.day`,
        [changed.map((r) => r.market), changed.map((r) => r.tf), changed.map((r) => r.day)],
      );
      for (const r of fresh.rows) {
        const summary = summaryOf(r.market as Market, r.tf as Timeframe, r.day, JSON.parse(r.doc) as DayDoc);
        this.summarized.set(key(r), { version: Number(r.version), summary });
      }
    }
    const now = new Set(kept.map(key));
    for (const k of this.summarized.keys()) if (!now.has(k)) this.summarized.delete(k);
    return kept.flatMap((r) => this.summarized.get(key(r))?.summary ?? []);
  }

  async holdsAny(): Promise<boolean> {
    const { rows } = await this.pool.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM deck_tape_days) AS any');
    return rows[0]!.any;
  }
}
