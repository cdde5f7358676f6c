import type { LedgerEntry } from '../../store/ledger.js';
import type { Store } from '../../store/store.js';

interface Owned {
  principal_id: string;
}

/** A ledger that records principals' acts: its entries, and each entry read as an act's kind and fields. */
interface ActSource<T extends Owned> {
  entries(store: Store): readonly LedgerEntry<T>[];
  read(entry: T): { kind: string; what: Record<string, unknown> };
}

const source = <T extends Owned>(s: ActSource<T>): ActSource<Owned> => s as unknown as ActSource<Owned>;

/**
 * Every ledger that records a principal's acts, in the order acts of one instant are listed. A ledger the deck keeps
 * for a new kind of act joins history with one row here and its answer's shapes in answers.ts (LEDGERS, which also
 * names the kinds history lists).
 */
const SOURCES = {
  // What the deck performed for the principal (the price list's actions), and what they recorded with POST /meter.
  meter: source({ entries: (s) => s.spend.entries, read: (e) => ({ kind: e.action, what: { units: e.units, bars: e.bars ?? null } }) }),
  grades: source({
    entries: (s) => s.grades.receiptEntries,
    read: (e) => ({
      kind: 'grade',
      what: { seed_hash: e.seed_hash, rubric: e.rubric, decision: e.decision, rehearsal_digest: e.rehearsal?.digest ?? null, decision_digest: e.decision_digest },
    }),
  }),
  scores: source({
    entries: (s) => s.grades.scoreEntries,
    read: (e) => ({
      kind: 'score',
      what: {
        stage: e.stage,
        seed_hash: e.subject.seed_hash ?? null,
        rehearsal_digest: e.subject.rehearsal_digest ?? null,
        rubric: e.rubric,
        score: e.score,
        decision_digest: e.decision_digest,
      },
    }),
  }),
  // Plans paid on chain, holder wallets linked, house mandates recorded, and every move of a series.
  'plan-claims': source({
    entries: (s) => s.claims.entries,
    read: (e) => ({ kind: 'plan_claim', what: { chain: e.chain, tx_hash: e.tx_hash, plan: e.plan, amount: e.amount, period: e.period } }),
  }),
  'holder-links': source({
    entries: (s) => s.holders.entries,
    read: (e) => ({ kind: 'holder_link', what: { day: e.day, wallet: e.wallet, nfts: e.nfts, block: e.block } }),
  }),
  mandates: source({
    entries: (s) => s.mandates.entries,
    read: (e) => ({ kind: 'mandate', what: { eip712_hash: e.eip712_hash, vault: e.vault, vault_matches: e.vault_matches } }),
  }),
  series: source({
    entries: (s) => s.series.entries,
    read: (e) => ({ kind: 'series_move', what: { series_id: e.series_id, n: e.n, row: e.row, from: e.from, to: e.to, epoch: e.epoch ?? null } }),
  }),
};

export type ActLedger = keyof typeof SOURCES;
export const ACT_LEDGERS = Object.keys(SOURCES) as [ActLedger, ...ActLedger[]];

/** One act of a principal, as the ledger entry that proves it: where it is chained, its hash and what it recorded. */
export interface Act {
  kind: string;
  ledger: ActLedger;
  seq: number;
  hash: string;
  at: string;
  /** What the entry recorded, in its own fields (never words: ledgers keep only their digest). */
  what: Record<string, unknown>;
}

/**
 * A principal's acts in time order (ties in ledger order, then chain order), read by a scan of the ledgers held in
 * memory: another principal's entries are never read into an act.
 */
export function actsOf(store: Store, principalId: string): Act[] {
  const acts = ACT_LEDGERS.flatMap((ledger) =>
    SOURCES[ledger]
      .entries(store)
      .filter((e) => e.entry.principal_id === principalId)
      .map((e): Act => ({ ...SOURCES[ledger].read(e.entry), ledger, seq: e.seq, hash: e.hash, at: new Date(e.at).toISOString() })),
  );
  const order = (l: ActLedger) => ACT_LEDGERS.indexOf(l);
  return acts.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : order(a.ledger) - order(b.ledger) || a.seq - b.seq));
}

/** The ledger entry at (ledger, seq) when it is the principal's; null otherwise (another's reads as none). */
export function ownEntry(store: Store, principalId: string, ledger: ActLedger, seq: number): LedgerEntry<Owned> | null {
  const entries = SOURCES[ledger].entries(store);
  const found = entries[seq - 1]?.seq === seq ? entries[seq - 1] : entries.find((e) => e.seq === seq);
  return found && found.entry.principal_id === principalId ? found : null;
}
