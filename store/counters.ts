import type { JsonFile } from './json-file.js';

/** Per-UTC-day counts: one total and one per (salted) client. A new day starts from zero. */
export interface DayCountsDoc {
  day: string;
  total: number;
  clients: Record<string, number>;
}

export class DayCounts {
  constructor(private readonly file: JsonFile<DayCountsDoc>) {}

  static empty = (): DayCountsDoc => ({ day: '', total: 0, clients: {} });

  read(day: string, client: string): { total: number; client: number } {
    const d = this.file.data;
    return d.day === day ? { total: d.total, client: d.clients[client] ?? 0 } : { total: 0, client: 0 };
  }

  /** Counts one more for `client` unless `admit` refuses (by throwing) on the counts as they stand. */
  take(day: string, client: string, admit: (now: { total: number; client: number }) => void): Promise<void> {
    return this.file.update((d) => {
      if (d.day !== day) Object.assign(d, { day, total: 0, clients: {} });
      admit({ total: d.total, client: d.clients[client] ?? 0 });
      d.total += 1;
      d.clients[client] = (d.clients[client] ?? 0) + 1;
    });
  }

  /** Gives back one count taken by `take` for work that then did not happen. */
  release(day: string, client: string): Promise<void> {
    return this.file.update((d) => {
      if (d.day !== day) return;
      d.total = Math.max(0, d.total - 1);
      d.clients[client] = Math.max(0, (d.clients[client] ?? 1) - 1);
    });
  }
}
