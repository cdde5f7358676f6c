import { createHash } from 'node:crypto';

/** What every ledger line carries around its entry: its place in the chain and the hashes that link it. */
export interface Link {
  seq: number;
  at: number;
  prev: string;
  hash: string;
  entry: unknown;
}

/** The prev of a ledger's first entry. */
export const GENESIS = '0'.repeat(64);

/** An entry's hash: sha256 over its seq, time, the previous hash and the entry itself. */
export const hashOf = (seq: number, at: number, prev: string, entry: unknown): string =>
  createHash('sha256').update(JSON.stringify([seq, at, prev, entry])).digest('hex');

/** Where a chain breaks: the entry, why, and the hash the chain expected against the one the entry carries. */
export interface ChainBreak {
  seq: number;
  why: string;
  expected: string;
  found: string;
}

/** Checks one entry against the hash of the entry before it (GENESIS for the first); null when it holds. */
export function linkBreak(e: Link, prev: string): ChainBreak | null {
  if (e.prev !== prev) return { seq: e.seq, why: 'prev does not match the previous hash', expected: prev, found: e.prev };
  const hash = hashOf(e.seq, e.at, e.prev, e.entry);
  if (hash !== e.hash) return { seq: e.seq, why: 'hash does not match the entry', expected: hash, found: e.hash };
  return null;
}
