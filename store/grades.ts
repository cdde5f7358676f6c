import type { Answered, Chosen, Decision, Fact, KeptRehearsal, KeptTrade, Score } from '../engine/grade/index.js';
import type { Market, Timeframe } from '../engine/markets.js';
import type { Backend } from './backend.js';
import type { Blobs } from './blobs.js';
import type { Doc } from './doc.js';
import type { Ledger, LedgerEntry } from './ledger.js';

/**
 * What grading keeps: the last rehearsals of each (principal, seed) for the facts, by their digest, the trial pings
 * each principal has spent, the grade receipts and the scores, each in an append-only hash-chained ledger.
 */

/**
 * A principal's rehearsal of a seed, kept as long as its forge, as the rehearsals document lists it: everything but
 * its trades, which are kept apart by the rehearsal's digest (a month of minutes holds some hundreds of KB of them,
 * and the document is written whole on every rehearsal).
 */
export interface KeptRecord extends Omit<KeptRehearsal, 'trades'> {
  kept_at: number;
  expires_at: number;
  /** The id of the plate sealed with it, when one was asked (the plates store keeps it). */
  plate?: string;
  /** A record kept before trades were kept apart holds its own. */
  trades?: KeptTrade[];
}

/** A kept rehearsal whole: its record and its trades. */
export type WholeRehearsal = KeptRecord & KeptRehearsal;

/**
 * Rehearsals kept per (principal, seed), the newest: a studio record's rehearsal stays gradable through a few
 * direct rehearsals of the same seed (another market, another window) made after it.
 */
export const REHEARSALS_KEPT = 8;

/** The rehearsal a grade or score judged, as its receipt names it. */
export interface JudgedRehearsal {
  digest: string;
  chosen: Chosen;
  market: Market;
  timeframe: Timeframe;
  from: number;
  to: number;
  trades: number;
}

/** What the grader was shown before each question: the context's digest and the code in plain words within it. */
export interface Shown {
  digest: string;
  code_in_words: string;
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
  /** The rehearsal judged; null when none was kept to judge. */
  rehearsal: JudgedRehearsal | null;
  facts: Fact[];
  grader: GraderPart | null;
  /** What the grader was shown; null when it was not asked. */
  shown: Shown | null;
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
  /** The seed hash and the rehearsal's digest (stage rehearsed), and the words' digest. */
  subject: { seed_hash?: string; rehearsal_digest?: string; words_sha256: string };
  /** Stage rehearsed: the rehearsal judged. */
  rehearsal?: JudgedRehearsal;
  facts: Fact[];
  grader: GraderPart | null;
  /** What the grader was shown (stage rehearsed); null when it was not asked. */
  shown?: Shown | null;
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

/** Where a kept rehearsal's trades are: by its digest. */
const tradesName = (digest: string): string => `${digest}.json`;

/** Every digest the kept records name. */
const digestsOf = (d: RehearsalsDoc): Set<string> => new Set(Object.values(d.by_principal).flatMap((list) => list.map((r) => r.digest)));

const tallyKey = (stage: Stage, principalId: string | null) => `${stage}|${principalId ?? '*'}`;

export class Grades {
  private readonly tallies = new Map<string, Tally>();

  private constructor(
    private readonly kept: Doc<RehearsalsDoc>,
    private readonly trades: Blobs,
    private readonly alone: Backend['alone'],
    private readonly pings: Doc<PingsDoc>,
    private readonly receipts: Ledger<GradeEntry>,
    private readonly scores: Ledger<ScoreEntry>,
  ) {
    scores.follow((e) => this.count(e.entry));
  }

  static async open(backend: Backend): Promise<Grades> {
    return new Grades(
      await backend.doc<RehearsalsDoc>('rehearsals', () => ({ by_principal: {} })),
      backend.blobs('trades'),
      (name, work) => backend.alone(name, work),
      await backend.doc<PingsDoc>('grader-pings', () => ({ used: {} })),
      await backend.ledger<GradeEntry>('grades'),
      await backend.ledger<ScoreEntry>('scores'),
    );
  }

  // ---- rehearsals ----

  /** A principal's kept rehearsals of a seed, oldest first (one kept before rehearsals were named by digest is not). */
  rehearsals(principalId: string, seed: string, now: number): KeptRecord[] {
    return (this.kept.data.by_principal[principalId] ?? []).filter((r) => r.id === seed && r.expires_at > now && typeof r.digest === 'string');
  }

  /** A principal's kept rehearsal by its digest, whatever its seed; null when none of theirs is kept under it. */
  rehearsal(principalId: string, digest: string, now: number): KeptRecord | null {
    return (this.kept.data.by_principal[principalId] ?? []).find((r) => r.digest === digest && r.expires_at > now) ?? null;
  }

  /** A kept rehearsal with its trades; null when they are no longer kept (a newer rehearsal dropped it meanwhile). */
  async whole(record: KeptRecord): Promise<WholeRehearsal | null> {
    if (record.trades) return record as WholeRehearsal;
    const bytes = await this.trades.read(tradesName(record.digest));
    return bytes ? { ...record, trades: JSON.parse(bytes.toString('utf8')) as KeptTrade[] } : null;
  }

  /**
   * Keeps a principal's rehearsal of a seed as the newest (the same rehearsal again, by digest, moves up); the seed
   * keeps its last REHEARSALS_KEPT, and every expired one goes. Its trades are kept once by digest (the same
   * rehearsal of the same seed and window is the same bytes) and go when no record names the digest any more. Keeps
   * run one at a time in every deck on the store, so a digest is never removed under a keep that names it.
   */
  keepRehearsal(principalId: string, kept: KeptRehearsal & { plate?: string }, now: number, expiresAt: number): Promise<void> {
    const { trades, ...record } = kept;
    const bytes = Buffer.from(JSON.stringify(trades));
    return this.alone('rehearsals', async () => {
      await this.trades.keepFirst(tradesName(kept.digest), bytes);
      const dropped = await this.kept.update((d) => {
        const before = digestsOf(d);
        for (const [who, list] of Object.entries(d.by_principal)) {
          const live = list.filter((r) => r.expires_at > now && !(who === principalId && r.id === kept.id && r.digest === kept.digest));
          if (live.length > 0) d.by_principal[who] = live;
          else delete d.by_principal[who];
        }
        const mine = [...(d.by_principal[principalId] ?? []), { ...record, kept_at: now, expires_at: expiresAt }];
        const ofSeed = mine.filter((r) => r.id === kept.id);
        const over = new Set(ofSeed.slice(0, Math.max(0, ofSeed.length - REHEARSALS_KEPT)));
        d.by_principal[principalId] = mine.filter((r) => !over.has(r));
        const after = digestsOf(d);
        return [...before].filter((digest) => !after.has(digest));
      });
      for (const digest of dropped) await this.trades.remove(tradesName(digest));
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

  score(entry: ScoreEntry, at: number): Promise<LedgerEntry<ScoreEntry>> {
    return this.scores.append(entry, at);
  }

  /** Every grade receipt as the ledger chains it, oldest first. */
  get receiptEntries(): readonly LedgerEntry<GradeEntry>[] {
    return this.receipts.all;
  }

  /** Every score as the ledger chains it, oldest first. */
  get scoreEntries(): readonly LedgerEntry<ScoreEntry>[] {
    return this.scores.all;
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
