import { createHash } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import PQueue from 'p-queue';

export interface LedgerEntry<T> {
  seq: number;
  at: number;
  prev: string;
  hash: string;
  entry: T;
}

const GENESIS = '0'.repeat(64);

const hashOf = (seq: number, at: number, prev: string, entry: unknown): string =>
  createHash('sha256').update(JSON.stringify([seq, at, prev, entry])).digest('hex');

/**
 * An append-only ledger: JSON lines, each carrying the previous line's hash, so the whole file can be
 * verified from the first entry. Appends are serialized and fsynced before they are acknowledged.
 */
export class Ledger<T> {
  private readonly queue = new PQueue({ concurrency: 1 });

  private constructor(
    private readonly file: string,
    private entries: LedgerEntry<T>[],
  ) {}

  static async open<T>(dir: string, name: string): Promise<Ledger<T>> {
    await mkdir(dir, { recursive: true });
    const file = join(dir, `${name}.jsonl`);
    const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? '' : Promise.reject(e)));
    const lines = text.split('\n');
    // A crash mid-append can leave one torn last line; it was never acknowledged, so it is dropped.
    const entries: LedgerEntry<T>[] = [];
    for (const line of lines) {
      if (!line) continue;
      try {
        entries.push(JSON.parse(line) as LedgerEntry<T>);
      } catch {
        break;
      }
    }
    return new Ledger(file, entries);
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
      const handle = await open(this.file, 'a');
      try {
        await handle.appendFile(`${JSON.stringify(record)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      this.entries.push(record);
      return record;
    }) as Promise<LedgerEntry<T>>;
  }

  /** The first entry whose chain breaks, or null when every hash and link holds. */
  verify(): { seq: number; why: string } | null {
    let prev = GENESIS;
    for (const e of this.entries) {
      if (e.prev !== prev) return { seq: e.seq, why: 'prev does not match the previous hash' };
      if (hashOf(e.seq, e.at, e.prev, e.entry) !== e.hash) return { seq: e.seq, why: 'hash does not match the entry' };
      prev = e.hash;
    }
    return null;
  }
}
