import type { Answered, Decision, Fact, KeptRehearsal, Score } from '../engine/grade/index.js';
import { JsonFile } from './json-file.js';
import { Ledger, type LedgerEntry } from './ledger.js';

/**
 * What grading keeps: the last rehearsal of each (principal, seed) for the facts, the trial pings each principal
 * has spent, the grade receipts and the scores, each in an append-only hash-chained ledger.
 */

/** A principal's last rehearsal of a seed, kept as long as its forge. */
export interface KeptRecord extends KeptRehearsal {
  kept_at: number;
  expires_at: number;
}

interface RehearsalsDoc {
  by_principal: Record<string, KeptRecord[]>;
}

interface PingsDoc {
  used: Record<string, number>;
}

/** The grader's part of a receipt or score: which model was asked, how it was funded, every answer. */
export interface GraderPart {
  model: string;
  funded: string;
  answers: Answered[];
}

/** One grade receipt as the ledger chains it; the words are kept only as their digest. */
export interface GradeEntry {
  principal_id: string;
  rubric: string;
  seed_hash: string;
  version: string;
  words_sha256: string;
  decision: Decision;
  facts: Fact[];
  grader: GraderPart | null;
  reasons: string[];
  decision_digest: string;
}

export const STAGES = ['parts', 'rehearsed'] as const;
export type Stage = (typeof STAGES)[number];

/** One score as the ledger chains it. */
export interface ScoreEntry {
  principal_id: string;
  rubric: string;
  stage: Stage;
  /** The seed hash (stage rehearsed) and the words' digest. */
  subject: { seed_hash?: string; words_sha256: string };
  facts: Fact[];
  grader: GraderPart | null;
  score: Score;
  reasons: string[];
  decision_digest: string;
}

/** Closed questions asked (n) and held (k). */
export interface Tally {
  k: number;
  n: number;
  scores: number;
}

const tallyKey = (stage: Stage, principalId: string | null) => `${stage}|${principalId ?? '*'}`;

export class Grades {
  private readonly tallies = new Map<string, Tally>();

  private constructor(
    private readonly rehearsals: JsonFile<RehearsalsDoc>,
    private readonly pings: JsonFile<PingsDoc>,
    private readonly receipts: Ledger<GradeEntry>,
    private readonly scores: Ledger<ScoreEntry>,
  ) {
    for (const e of scores.all) this.count(e.entry);
  }

  static async open(dir: string): Promise<Grades> {
    return new Grades(
      await JsonFile.open<RehearsalsDoc>(dir, 'rehearsals', () => ({ by_principal: {} })),
      await JsonFile.open<PingsDoc>(dir, 'grader-pings', () => ({ used: {} })),
      await Ledger.open<GradeEntry>(dir, 'grades'),
      await Ledger.open<ScoreEntry>(dir, 'scores'),
    );
  }

  // ---- rehearsals ----

  rehearsal(principalId: string, seed: string, now: number): KeptRecord | null {
    const found = this.rehearsals.data.by_principal[principalId]?.find((r) => r.id === seed);
    return found && found.expires_at > now ? found : null;
  }

  /** Keeps a principal's rehearsal of a seed in place of the one before; every expired one goes. */
  keepRehearsal(principalId: string, kept: KeptRehearsal, now: number, expiresAt: number): Promise<void> {
    return this.rehearsals.update((d) => {
      for (const [who, list] of Object.entries(d.by_principal)) {
        const live = list.filter((r) => r.expires_at > now && !(who === principalId && r.id === kept.id));
        if (live.length > 0) d.by_principal[who] = live;
        else delete d.by_principal[who];
      }
      (d.by_principal[principalId] ??= []).push({ ...kept, kept_at: now, expires_at: expiresAt });
    });
  }

  // ---- trial pings ----

  pingsUsed(principalId: string): number {
    return this.pings.data.used[principalId] ?? 0;
  }

  /** Takes one ping unless `admit` refuses (by throwing) on the pings used so far; answers the pings used after. */
  takePing(principalId: string, admit: (used: number) => void): Promise<number> {
    return this.pings.update((d) => {
      const used = d.used[principalId] ?? 0;
      admit(used);
      d.used[principalId] = used + 1;
      return used + 1;
    });
  }

  /** Gives back a ping taken for a decision that did not come back. */
  givePing(principalId: string): Promise<void> {
    return this.pings.update((d) => {
      const used = d.used[principalId] ?? 0;
      if (used > 1) d.used[principalId] = used - 1;
      else delete d.used[principalId];
    });
  }

  // ---- ledgers ----

  receipt(entry: GradeEntry, at: number): Promise<LedgerEntry<GradeEntry>> {
    return this.receipts.append(entry, at);
  }

  async score(entry: ScoreEntry, at: number): Promise<LedgerEntry<ScoreEntry>> {
    const recorded = await this.scores.append(entry, at);
    this.count(entry);
    return recorded;
  }

  /** The questions asked and held at a stage, house-wide (principalId null) or one principal's. */
  tally(stage: Stage, principalId: string | null): Tally {
    return this.tallies.get(tallyKey(stage, principalId)) ?? { k: 0, n: 0, scores: 0 };
  }

  private count(e: ScoreEntry): void {
    const answers = e.grader?.answers ?? [];
    const held = answers.filter((a) => a.verdict === 'holds').length;
    for (const key of [tallyKey(e.stage, null), tallyKey(e.stage, e.principal_id)]) {
      const t = this.tallies.get(key) ?? { k: 0, n: 0, scores: 0 };
      this.tallies.set(key, { k: t.k + held, n: t.n + answers.length, scores: t.scores + 1 });
    }
  }
}
