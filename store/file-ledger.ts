import { mkdir, open, readFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { HeldLedger, type Appending, type LedgerEntry } from './ledger.js';

const NEWLINE = 0x0a;

/**
 * A ledger in one file of JSON lines (<name>.jsonl), each carrying the previous line's hash. A batch of appends is
 * written and fsynced before any of it is acknowledged.
 */
export class FileLedger<T> extends HeldLedger<T> {
  private constructor(
    name: string,
    private readonly file: string,
    entries: LedgerEntry<T>[],
    /** Bytes of whole lines on disk: where the next line starts. */
    private size: number,
  ) {
    super(name, entries);
  }

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

  protected async keep(batch: readonly Appending<T>[]): Promise<LedgerEntry<T>[]> {
    const records = this.chained(batch);
    const lines = Buffer.from(records.map((r) => `${JSON.stringify(r)}\n`).join(''));
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
    this.size += lines.length;
    return records;
  }
}
