import { mkdir, open, readFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { GENESIS, hashOf } from './chain.js';
import { crashPoint } from './crash-point.js';
import { verifyEntries, type Ledger, type LedgerEntry } from './ledger.js';

const NEWLINE = 0x0a;

/**
 * A ledger in one file of JSON lines (<name>.jsonl), each carrying the previous line's hash. Appends are serialized
 * and fsynced before they are acknowledged.
 */
export class FileLedger<T> implements Ledger<T> {
  /** Appends not yet written, and the write under way (null when none is). */
  private readonly waiting: { entry: T; at: number; resolve: (e: LedgerEntry<T>) => void; reject: (error: unknown) => void }[] = [];
  private writing: Promise<void> | null = null;
  private readonly followers: ((e: LedgerEntry<T>) => void)[] = [];

  private constructor(
    private readonly name: string,
    private readonly file: string,
    private entries: LedgerEntry<T>[],
    /** Bytes of whole lines on disk: where the next line starts. */
    private size: number,
  ) {}

  static async open<T>(dir: string, name: string): Promise<FileLedger<T>> {
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
    return new FileLedger(name, file, entries, size);
  }

  get all(): readonly LedgerEntry<T>[] {
    return this.entries;
  }

  follow(see: (e: LedgerEntry<T>) => void): void {
    for (const e of this.entries) see(e);
    this.followers.push(see);
  }

  /**
   * Appends one entry, acknowledged once it is on disk. Appends that arrive while a write is in flight are written
   * together after it, each chained on the one before, with one fsync for the lot (group commit): a busy ledger
   * (the meter, one entry per read) is then bound by the disk's fsync rate per batch, not per entry.
   */
  append(entry: T, at: number): Promise<LedgerEntry<T>> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ entry, at, resolve, reject });
      if (!this.writing) this.writing = this.writeWaiting();
    });
  }

  private async writeWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0);
      const records: LedgerEntry<T>[] = [];
      let last = this.entries[this.entries.length - 1];
      for (const { entry, at } of batch) {
        const seq = (last?.seq ?? 0) + 1;
        const prev = last?.hash ?? GENESIS;
        last = { seq, at, prev, hash: hashOf(seq, at, prev, entry), entry };
        records.push(last);
      }
      const lines = Buffer.from(records.map((r) => `${JSON.stringify(r)}\n`).join(''));
      try {
        const handle = await open(this.file, 'a');
        try {
          await handle.appendFile(lines);
          await handle.sync();
        } catch (error) {
          // A failed append may have left part of a line: cut it off so the next one starts clean.
          await handle.truncate(this.size).catch(() => {});
          throw error;
        } finally {
          await handle.close();
        }
      } catch (error) {
        for (const w of batch) w.reject(error);
        continue;
      }
      crashPoint(this.name);
      this.size += lines.length;
      this.entries.push(...records);
      for (const r of records) for (const see of this.followers) see(r);
      batch.forEach((w, i) => w.resolve(records[i]!));
    }
    this.writing = null;
  }

  verify(): { seq: number; why: string } | null {
    return verifyEntries(this.entries);
  }
}
