/** Per-UTC-day counts: one total and one per (salted) client. A new day starts from zero. */
export interface DayCounts {
  day: string;
  total: number;
  clients: Record<string, number>;
}

export const noCounts = (): DayCounts => ({ day: '', total: 0, clients: {} });

/** What `day` counts, in all and for `client` (counts of another day count nothing). */
export const countsOn = (c: DayCounts, day: string, client: string): { total: number; client: number } =>
  c.day === day ? { total: c.total, client: c.clients[client] ?? 0 } : { total: 0, client: 0 };

/**
 * Adds `by` for `client` on `day`. A later day starts the counts afresh; a count for an earlier day than the one
 * counted (work that began before midnight and ended after) is dropped, as is taking back from another day.
 */
export function addCount(c: DayCounts, day: string, client: string, by: 1 | -1): void {
  if (c.day !== day) {
    if (by < 0 || day < c.day) return;
    Object.assign(c, noCounts(), { day });
  }
  c.total = Math.max(0, c.total + by);
  const n = (c.clients[client] ?? 0) + by;
  if (n > 0) c.clients[client] = n;
  else delete c.clients[client];
}
