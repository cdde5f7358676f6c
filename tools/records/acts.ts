import type { LedgerEntry } from '../../store/ledger.js';
import type { Store } from '../../store/store.js';

/** The ledgers that record a principal's acts, in the order acts of the same instant are listed. */
export const ACT_LEDGERS = ['meter', 'grades', 'scores'] as const;
export type ActLedger = (typeof ACT_LEDGERS)[number];

/** One act of a principal, as the ledger entry that proves it: where it is chained, its hash and what it recorded. */
export interface Act {
  kind: string;
  ledger: ActLedger;
  seq: number;
  hash: string;
  at: string;
  /** What the entry recorded, in its own fields (never the words: ledgers keep only their digest). */
  what: Record<string, unknown>;
}

interface Owned {
  principal_id: string;
}

/** The entries of one ledger that are the principal's, as acts. */
function ownActs<T extends Owned>(ledger: ActLedger, entries: readonly LedgerEntry<T>[], principalId: string, read: (e: T) => { kind: string; what: Record<string, unknown> }): Act[] {
  return entries
    .filter((e) => e.entry.principal_id === principalId)
    .map((e) => ({ ...read(e.entry), ledger, seq: e.seq, hash: e.hash, at: new Date(e.at).toISOString() }));
}

/**
 * A principal's acts in time order (ties in ledger order, then chain order): the meter's entries (each act the deck
 * performed for them, and what they recorded with POST /meter), their grade receipts and their scores. Read by a scan
 * of the ledgers held in memory.
 */
export function actsOf(store: Store, principalId: string): Act[] {
  const acts = [
    ...ownActs('meter', store.spend.entries, principalId, (e) => ({ kind: e.action, what: { units: e.units, bars: e.bars ?? null } })),
    ...ownActs('grades', store.grades.receiptEntries, principalId, (e) => ({
      kind: 'grade',
      what: { seed_hash: e.seed_hash, rubric: e.rubric, decision: e.decision, rehearsal_digest: e.rehearsal?.digest ?? null, decision_digest: e.decision_digest },
    })),
    ...ownActs('scores', store.grades.scoreEntries, principalId, (e) => ({
      kind: 'score',
      what: {
        stage: e.stage,
        seed_hash: e.subject.seed_hash ?? null,
        rehearsal_digest: e.subject.rehearsal_digest ?? null,
        rubric: e.rubric,
        score: e.score,
        decision_digest: e.decision_digest,
      },
    })),
  ];
  const order = (l: ActLedger) => ACT_LEDGERS.indexOf(l);
  return acts.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : order(a.ledger) - order(b.ledger) || a.seq - b.seq));
}

/** The ledger entry at (ledger, seq) when it is the principal's; null otherwise (another's reads as none). */
export function ownEntry(store: Store, principalId: string, ledger: ActLedger, seq: number): LedgerEntry<Owned> | null {
  const entries: readonly LedgerEntry<Owned>[] = ledger === 'meter' ? store.spend.entries : ledger === 'grades' ? store.grades.receiptEntries : store.grades.scoreEntries;
  const found = entries[seq - 1]?.seq === seq ? entries[seq - 1] : entries.find((e) => e.seq === seq);
  return found && found.entry.principal_id === principalId ? found : null;
}
