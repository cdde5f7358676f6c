import { GENESIS, hashOf, linkBreak } from './chain.js';
import { crashPoint } from './crash-point.js';

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
function verifyEntries(entries: readonly LedgerEntry<unknown>[]): { seq: number; why: string } | null {
  let prev = GENESIS;
  for (const e of entries) {
    const broken = linkBreak(e, prev);
    if (broken) return { seq: broken.seq, why: broken.why };
    prev = e.hash;
  }
  return null;
}

/** Where a chain ends: its last entry's seq (0 when empty) and hash (GENESIS when empty). */
export interface ChainHead {
  seq: number;
  hash: string;
}

/** An entry to append and its time, as `append` was asked. */
export interface Appending<T> {
  entry: T;
  at: number;
}

/**
 * What every ledger shares, whatever keeps it: the entries held, their followers, and group commit. Appends that
 * arrive while a write is under way are written together after it, each chained on the one before, in one write
 * (one fsync, or one commit) for the lot: a busy ledger (the meter, one entry per read) is then bound by the store's
 * rate of writes per batch, not per entry. A subclass keeps a batch (`keep`) and answers the entries it chained.
 */
export abstract class HeldLedger<T> implements Ledger<T> {
  private readonly waiting: (Appending<T> & { resolve: (e: LedgerEntry<T>) => void; reject: (error: unknown) => void })[] = [];
  private writing: Promise<void> | null = null;
  private readonly followers: ((e: LedgerEntry<T>) => void)[] = [];

  /** `maxBatch`: the most appends one write keeps; those waiting beyond it go in the writes after. */
  protected constructor(
    protected readonly name: string,
    protected readonly entries: LedgerEntry<T>[],
    private readonly maxBatch = Number.POSITIVE_INFINITY,
  ) {}

  get all(): readonly LedgerEntry<T>[] {
    return this.entries;
  }

  follow(see: (e: LedgerEntry<T>) => void): void {
    for (const e of this.entries) see(e);
    this.followers.push(see);
  }

  verify(): { seq: number; why: string } | null {
    return verifyEntries(this.entries);
  }

  /** Appends one entry, acknowledged once it is kept. */
  append(entry: T, at: number): Promise<LedgerEntry<T>> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ entry, at, resolve, reject });
      if (!this.writing) this.writing = this.writeWaiting();
    });
  }

  /** Keeps a batch, chained (by `chained`) on the entries held when it is written; answers the entries kept. */
  protected abstract keep(batch: readonly Appending<T>[]): Promise<LedgerEntry<T>[]>;

  /** The batch as entries chained on `head` (by default the last entry held). */
  protected chained(batch: readonly Appending<T>[], head: ChainHead = { seq: this.entries.at(-1)?.seq ?? 0, hash: this.entries.at(-1)?.hash ?? GENESIS }): LedgerEntry<T>[] {
    let { seq, hash: prev } = head;
    return batch.map(({ entry, at }) => {
      seq += 1;
      const record = { seq, at, prev, hash: hashOf(seq, at, prev, entry), entry };
      prev = record.hash;
      return record;
    });
  }

  /** Takes entries that follow on from those held, skipping any held already (a catch-up may bring them twice). */
  protected adopt(records: readonly LedgerEntry<T>[]): void {
    for (const r of records) {
      const last = this.entries.at(-1)?.seq ?? 0;
      if (r.seq <= last) continue;
      if (r.seq !== last + 1) throw new Error(`ledger ${this.name}: entry ${r.seq} read after ${last}`);
      this.entries.push(r);
      for (const see of this.followers) see(r);
    }
  }

  private async writeWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      let records: LedgerEntry<T>[];
      try {
        records = await this.keep(batch);
      } catch (error) {
        for (const w of batch) w.reject(error);
        continue;
      }
      crashPoint(this.name);
      this.adopt(records);
      batch.forEach((w, i) => w.resolve(records[i]!));
    }
    this.writing = null;
  }
}
