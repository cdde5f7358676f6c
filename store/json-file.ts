import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { JSONFile } from 'lowdb/node';
import PQueue from 'p-queue';
import { crashPoint } from './crash-point.js';
import type { Doc } from './doc.js';

/**
 * One JSON document on disk (one file per collection). Reads come from memory; every update runs alone
 * (a p-queue of one per file), mutates a copy, writes the copy with write-then-rename (lowdb's steno
 * writer) and only then adopts it as the document in memory. So a reader never sees what is not yet on
 * disk, a failed write leaves disk and memory as they were, and an update that resolved survives a crash
 * of the process. The write is not fsynced: a power cut may still lose the last updates.
 */
export class JsonFile<T extends object> implements Doc<T> {
  private readonly queue = new PQueue({ concurrency: 1 });

  private constructor(
    private readonly name: string,
    private readonly adapter: JSONFile<T>,
    private doc: T,
  ) {}

  static async open<T extends object>(dir: string, name: string, empty: () => T): Promise<JsonFile<T>> {
    await mkdir(dir, { recursive: true });
    const adapter = new JSONFile<T>(join(dir, `${name}.json`));
    return new JsonFile(name, adapter, (await adapter.read()) ?? empty());
  }

  /** The document as last written. Callers must not mutate it. */
  get data(): Readonly<T> {
    return this.doc;
  }

  /** Applies `change` to a copy, writes it, then adopts it; `change` may throw to refuse (nothing is written). */
  update<R>(change: (draft: T) => R): Promise<R> {
    return this.queue.add(async () => {
      const draft = structuredClone(this.doc);
      const result = change(draft);
      await this.adapter.write(draft);
      crashPoint(this.name);
      this.doc = draft;
      return result;
    }) as Promise<R>;
  }
}
