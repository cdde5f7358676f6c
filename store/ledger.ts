import { mkdir, open, readFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import PQueue from 'p-queue';
import { GENESIS, hashOf, linkBreak } from './chain.js';

export interface LedgerEntry<T> {
  seq: number;
  at: number;
  prev: string;
  hash: string;
  entry: T;
}

const NEWLINE = 0x0a;

/**
 * An append-only ledger: JSON lines, each carrying the previous line's hash, so the whole file can be
 * verified from the first entry. Appends are serialized and fsynced before they are acknowledged.
 */
export class Ledger<T> {
  private readonly queue = new PQueue({ concurrency: 1 });

  private constructor(
    private readonly file: string,
    private entries: LedgerEntry<T>[],
    /** Bytes of whole lines on disk: where the next line starts. */
    private size: number,
  ) {}

  static async open<T>(dir: string, name: string): Promise<Ledger<T>> {
    await mkdir(dir, { recursive: true });
    const file = join(dir, `${name}.jsonl`);
    const bytes = await readFile(file).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? Buffer.alloc(0) : Promise.reject(e)));
    // A line is written whole with its newline before it is acknowledged, so only an unacknowledged append,
    // torn by a crash, can lack one: it is cut off, or the next line would be glued to it.
    const size = bytes.lastIndexOf(NEWLINE) + 1;
    if (size < bytes.length) await truncate(file, size);
    const entries: LedgerEntry<T>[] = [];
    const lines = bytes.subarray(0, size).toString('utf8').split('\n');
    lines.forEach((line, i) => {
      if (!line) return;
      try {
        entries.push(JSON.parse(line) as LedgerEntry<T>);
      } catch {
        // A whole line that does not parse was damaged after it was written: refuse, rather than drop
        // acknowledged entries or chain new ones onto a break.
        throw new Error(`${file}: line ${i + 1} is not JSON; the ledger is damaged`);
      }
    });
    return new Ledger(file, entries, size);
  }

  get all(): readonly LedgerEntry<T>[] {
    return this.entries;
  }

  append(entry: T, at: number): Promise<LedgerEntry<T>> {
    return this.queue.add(async () => {
      const last = this.entries[this.entries.length - 1];
      const seq = (last?.seq ?? 0) + 1;
      const prev = last?.hash ?? GENESIS;
      const record: LedgerEntry<T> = { seq, at, prev, hash: hashOf(seq, at, prev, entry), entry };
      const line = Buffer.from(`${JSON.stringify(record)}\n`);
      const handle = await open(this.file, 'a');
      try {
        await handle.appendFile(line);
        await handle.sync();
      } catch (error) {
        // A failed append may have left part of a line: cut it off so the next one starts clean.
        await handle.truncate(this.size).catch(() => {});
        throw error;
      } finally {
        await handle.close();
      }
      this.size += line.length;
      this.entries.push(record);
      return record;
    }) as Promise<LedgerEntry<T>>;
  }

  /** The first entry whose chain breaks, or null when every hash and link holds. */
  verify(): { seq: number; why: string } | null {
    let prev = GENESIS;
    for (const e of this.entries) {
      const broken = linkBreak(e, prev);
      if (broken) return { seq: broken.seq, why: broken.why };
      prev = e.hash;
    }
    return null;
  }
}
