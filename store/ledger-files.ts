import { createReadStream } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { GENESIS, linkBreak, type ChainBreak, type Link } from './chain.js';

/**
 * Every hash-chained ledger the deck keeps, read from disk: each is a `<name>.jsonl` file in the data directory
 * (the meter, grades, scores, each forecast pair's issues and scores). Read from the files, not from memory, so what
 * is listed and verified is what is kept, including a ledger this run has not opened yet.
 */

const EXT = '.jsonl';
const NEWLINE = 0x0a;
/** How much of a file's end is read at a time while looking for its last whole line. */
const TAIL_CHUNK = 64 * 1024;

/**
 * A ledger by its head: the last whole line's seq (its length) and hash; head null while it is empty. A last line that
 * is not JSON gives neither (length and head null): its verify names the damage.
 */
export interface LedgerHead {
  name: string;
  length: number | null;
  head: string | null;
}

/** A walk of a ledger from its first entry: how many entries held, and the first break, when there is one. */
export interface LedgerWalk {
  name: string;
  /** Entries that hold, from the first, up to the break (all of them when there is none). */
  checked: number;
  /** The hash of the last entry that holds (GENESIS when none does). */
  head: string;
  /** The first break: the line, the entry's seq (null when the line is not JSON), why, and the two hashes. */
  break: LedgerBreak | null;
}

export type LedgerBreak = Omit<ChainBreak, 'seq' | 'found'> & { line: number; seq: number | null; found: string | null };

/**
 * One stored line of a walk, the `line`th, checked against the hash before it: the entry's own hash, to check the next
 * one against, or where the chain breaks (a line that is not an entry, or a link or hash that does not hold).
 */
export function walkLine(text: string, prev: string, line: number): { hash: string } | { break: LedgerBreak } {
  let e: Link | null = null;
  try {
    e = JSON.parse(text) as Link | null;
  } catch {
    // Told below: a line that is not JSON is where the chain breaks.
  }
  if (typeof e !== 'object' || e === null) return { break: { line, seq: null, why: 'the line is not a ledger entry', expected: prev, found: null } };
  const broken = linkBreak(e, prev);
  return broken ? { break: { ...broken, line } } : { hash: e.hash };
}

export const ledgerFile = (dir: string, name: string): string => join(dir, `${name}${EXT}`);

/** The names of the ledgers in the data directory, sorted. */
export async function ledgerNames(dir: string): Promise<string[]> {
  const files = await readdir(dir).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? [] : Promise.reject(e)));
  return files.filter((f) => f.endsWith(EXT) && !f.startsWith('.')).map((f) => basename(f, EXT)).sort();
}

/**
 * The last whole line of a file (a torn last line, never acknowledged, is not one), read backwards from its end, so
 * the head of a long ledger costs one short read.
 */
async function lastLine(file: string): Promise<string | null> {
  const handle = await open(file, 'r');
  try {
    let pos = (await handle.stat()).size;
    let tail = Buffer.alloc(0);
    while (pos > 0) {
      const from = Math.max(0, pos - TAIL_CHUNK);
      const chunk = Buffer.alloc(pos - from);
      await handle.read(chunk, 0, chunk.length, from);
      tail = Buffer.concat([chunk, tail]);
      pos = from;
      const end = tail.lastIndexOf(NEWLINE);
      if (end < 0) continue;
      const start = end > 0 ? tail.lastIndexOf(NEWLINE, end - 1) : -1;
      if (start >= 0 || pos === 0) return tail.subarray(start + 1, end).toString('utf8');
    }
    return null;
  } finally {
    await handle.close();
  }
}

/** Each ledger's length and head hash, from its last whole line, in ledgerNames' order. */
export async function ledgerHeads(dir: string): Promise<LedgerHead[]> {
  return Promise.all((await ledgerNames(dir)).map((name) => ledgerHead(dir, name)));
}

/** A ledger's length and head hash, from its last whole line. */
async function ledgerHead(dir: string, name: string): Promise<LedgerHead> {
  const line = await lastLine(ledgerFile(dir, name));
  if (line === null) return { name, length: 0, head: null };
  try {
    const last = JSON.parse(line) as Partial<Link> | null;
    if (typeof last?.seq === 'number' && typeof last.hash === 'string') return { name, length: last.seq, head: last.hash };
  } catch {
    // Not JSON: told below, as a head that cannot be read.
  }
  return { name, length: null, head: null };
}

/** Walks a ledger file from its first entry and stops at the first break. A torn last line is left out, as on open. */
export async function walkLedger(dir: string, name: string): Promise<LedgerWalk> {
  let prev = GENESIS;
  let checked = 0;
  let line = 0;
  let rest = '';
  const stream = createReadStream(ledgerFile(dir, name), { encoding: 'utf8' });
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      for (const text of lines) {
        line++;
        if (!text) continue;
        const step = walkLine(text, prev, line);
        if ('break' in step) return { name, checked, head: prev, break: step.break };
        prev = step.hash;
        checked++;
      }
    }
  } finally {
    stream.destroy();
  }
  return { name, checked, head: prev, break: null };
}
