import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import PQueue from 'p-queue';

/**
 * One JSON document on disk (one file per collection). Reads come from memory; every update runs alone
 * (a p-queue of one per file), mutates a copy, is written with write-then-rename (lowdb's steno writer)
 * and only then becomes the document in memory. A failed write leaves both disk and memory as they were,
 * and an update that resolved is on disk: a crash never leaves a half-written file or loses an ack.
 */
export class JsonFile<T extends object> {
  private readonly queue = new PQueue({ concurrency: 1 });

  private constructor(private readonly db: Low<T>) {}

  static async open<T extends object>(dir: string, name: string, empty: () => T): Promise<JsonFile<T>> {
    await mkdir(dir, { recursive: true });
    const db = new Low<T>(new JSONFile<T>(join(dir, `${name}.json`)), empty());
    await db.read();
    return new JsonFile(db);
  }

  /** The document as last written. Callers must not mutate it. */
  get data(): Readonly<T> {
    return this.db.data;
  }

  /** Applies `change` to a copy, writes it, then adopts it; `change` may throw to refuse (nothing is written). */
  update<R>(change: (draft: T) => R): Promise<R> {
    return this.queue.add(async () => {
      const draft = structuredClone(this.db.data);
      const result = change(draft);
      const before = this.db.data;
      this.db.data = draft;
      try {
        await this.db.write();
      } catch (error) {
        this.db.data = before;
        throw error;
      }
      return result;
    }) as Promise<R>;
  }
}
