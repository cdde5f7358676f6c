import { GENESIS, linkBreak } from './chain.js';

export interface LedgerEntry<T> {
  seq: number;
  at: number;
  prev: string;
  hash: string;
  entry: T;
}

/**
 * An append-only hash-chained ledger: each entry carries the previous entry's hash, so the whole chain can be verified
 * from its first entry. An append is acknowledged once it is kept (fsynced, or committed).
 */
export interface Ledger<T> {
  /** Every entry this deck holds, in chain order: all that were kept when it opened or last caught up, and its own. */
  readonly all: readonly LedgerEntry<T>[];
  append(entry: T, at: number): Promise<LedgerEntry<T>>;
  /**
   * Calls `see` with every entry held, in chain order, then with each entry adopted later, this deck's own or (on a
   * shared store) another deck's, before the append that adopted it is acknowledged: an index built by `see` is never
   * behind the chain.
   */
  follow(see: (e: LedgerEntry<T>) => void): void;
  /** The first entry whose chain breaks, or null when every hash and link holds. */
  verify(): { seq: number; why: string } | null;
}

/** The first break of a chain held in memory, or null. */
export function verifyEntries(entries: readonly LedgerEntry<unknown>[]): { seq: number; why: string } | null {
  let prev = GENESIS;
  for (const e of entries) {
    const broken = linkBreak(e, prev);
    if (broken) return { seq: broken.seq, why: broken.why };
    prev = e.hash;
  }
  return null;
}
