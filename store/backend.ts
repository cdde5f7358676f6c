import type { BlobKind, Blobs } from './blobs.js';
import type { Doc } from './doc.js';
import type { Ledger } from './ledger.js';
import type { LedgerHead, LedgerWalk } from './ledger-files.js';
import type { TapeDays } from './tape-days.js';

/**
 * Where the store keeps what it keeps: JSON files under one data directory (the default), or one PostgreSQL database
 * that many decks share. The collections above it (accounts, marks, the meter...) are written once, against this.
 */
export interface Backend {
  readonly kind: 'json' | 'postgres';
  /**
   * Whether other decks may write to this store too (PostgreSQL): a deck then catches up before each request and
   * keeps its login refusals in the store. JSON files belong to one process.
   */
  readonly shared: boolean;
  /** A document by name, made from `empty` when the store has none yet. */
  doc<T extends object>(name: string, empty: () => T): Promise<Doc<T>>;
  ledger<T>(name: string): Promise<Ledger<T>>;
  /** The tape archive's days. */
  readonly tapeDays: TapeDays;
  /** Bytes kept whole by name: the seals of past windows, sealed plates, attached images, kept rehearsals' trades. */
  blobs(kind: BlobKind): Blobs;
  /** The ledgers that hold at least one entry, by name, sorted. */
  ledgerNames(): Promise<string[]>;
  /** Each of those ledgers' length and head, read from the store (not from this deck's memory), in the same order. */
  ledgerHeads(): Promise<LedgerHead[]>;
  /** Walks a ledger as the store keeps it from its first entry, stopping at the first break. */
  walkLedger(name: string): Promise<LedgerWalk>;
  /**
   * Brings what this deck holds in memory up to what the store holds: a write another deck acknowledged before this
   * call began is seen after it (one query when nothing changed; nothing at all for the JSON files, one process's own).
   */
  catchUp(): Promise<void>;
  /**
   * Holds one of `slots` places named `name` for every deck on the store, or answers null when all are taken
   * (`wait`: waits for one instead). The release must be called; a deck that dies releases its places.
   */
  hold(name: string, slots: number, wait: boolean): Promise<(() => Promise<void>) | null>;
  /**
   * Runs `work` alone under `name`, in this deck and among every deck on the store, once this deck has caught up with
   * the store: a decision read from memory and then appended (a transaction claimed once, a move chained once) holds.
   */
  alone<R>(name: string, work: () => Promise<R>): Promise<R>;
  /** Throws when the store would not take a write now (the readiness probe): the reason, for the log. */
  probeWrite(at: number): Promise<void>;
  close(): Promise<void>;
}

/** The place a guard holds in the store for one key (services/guards.ts): the same name on every deck. */
export const guardPlace = (guard: string, key: string): string => `${guard}|${key}`;

/** The join guard's one key: joins take turns house-wide, and the door's settling at start waits for the same place. */
export const HOUSE_WIDE = 'house';
