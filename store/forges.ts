import type { Script } from '../engine/decider/index.js';
import type { Review, Scan } from '../engine/forge/index.js';
import type { Doc } from './doc.js';

/** One forge as its principal keeps it: looked up by its seed hash for two hours, then gone. */
export interface ForgeRecord {
  /** The seed hash. */
  id: string;
  version: string;
  intent: string;
  author: string | null;
  script: Script;
  code: string;
  review: Review;
  scan: Scan;
  created_at: number;
  expires_at: number;
}

export interface ForgesDoc {
  by_principal: Record<string, ForgeRecord[]>;
  /** Casts per principal on one UTC day (the free tier's count outlives the forges it counted). */
  casts: Record<string, { day: string; n: number }>;
}

/**
 * The forges each principal cast, by (principal, seed hash): another principal's seed reads like no seed. A forge
 * past its expiry reads as absent and is pruned at the next cast.
 */
export class Forges {
  constructor(private readonly file: Doc<ForgesDoc>) {}

  static empty = (): ForgesDoc => ({ by_principal: {}, casts: {} });

  get(principalId: string, seed: string, now: number): ForgeRecord | null {
    const found = this.file.data.by_principal[principalId]?.find((r) => r.id === seed);
    return found && found.expires_at > now ? found : null;
  }

  castsOn(principalId: string, day: string): number {
    const c = this.file.data.casts[principalId];
    return c && c.day === day ? c.n : 0;
  }

  /**
   * Keeps a forge (a recast of the same seed replaces the earlier one and its expiry) and counts the cast on `day`,
   * unless `admit` refuses (by throwing) on the casts already counted that day. Expired forges of every principal go.
   */
  keep(principalId: string, record: ForgeRecord, day: string, admit: (castsToday: number) => void): Promise<void> {
    return this.file.update((d) => {
      const c = d.casts[principalId];
      const today = c && c.day === day ? c.n : 0;
      admit(today);
      for (const [who, list] of Object.entries(d.by_principal)) {
        const live = list.filter((r) => r.expires_at > record.created_at && !(who === principalId && r.id === record.id));
        if (live.length > 0) d.by_principal[who] = live;
        else delete d.by_principal[who];
      }
      (d.by_principal[principalId] ??= []).push(record);
      d.casts[principalId] = { day, n: today + 1 };
    });
  }
}
