import type { Blobs } from './blobs.js';

/**
 * Sealed answers: the exact bytes first served for a window wholly in the past, kept in the store (seals/<key>.json,
 * written whole, the first seal of a key winning, whichever deck made it) and the most recent ones in memory, so the
 * same request returns the same bytes.
 */
export class Seals {
  private readonly memory = new Map<string, Buffer>();
  private readonly sealing = new Map<string, Promise<Buffer>>();
  private held = 0;

  constructor(
    private readonly kept: Blobs,
    private readonly memoryCap = 64 * 1024 * 1024,
  ) {}

  private name(key: string) {
    return `${key}.json`;
  }

  private remember(key: string, bytes: Buffer): void {
    this.memory.delete(key);
    this.memory.set(key, bytes);
    this.held += bytes.length;
    // Oldest first out (a Map iterates in insertion order; a read re-inserts).
    for (const [k, b] of this.memory) {
      if (this.held <= this.memoryCap) break;
      this.memory.delete(k);
      this.held -= b.length;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    const hot = this.memory.get(key);
    if (hot) {
      this.memory.delete(key);
      this.memory.set(key, hot);
      return hot;
    }
    const bytes = await this.kept.read(this.name(key));
    if (bytes) this.remember(key, bytes);
    return bytes;
  }

  /** Withdraws a seal (one kept under an older sealing rule that the current one would not have made). */
  async drop(key: string): Promise<void> {
    const bytes = this.memory.get(key);
    if (bytes) {
      this.memory.delete(key);
      this.held -= bytes.length;
    }
    await this.kept.remove(this.name(key));
  }

  /**
   * Seals `bytes` under `key` unless a seal is already there (or being made); answers the sealed bytes,
   * so two first requests racing for one window both answer what was sealed.
   */
  seal(key: string, bytes: Buffer): Promise<Buffer> {
    const running = this.sealing.get(key);
    if (running) return running;
    const work = (async () => {
      const already = this.memory.get(key);
      if (already) return already;
      // keepFirst reads what is kept before it writes, and answers that when there is one.
      const sealed = await this.kept.keepFirst(this.name(key), bytes);
      this.remember(key, sealed);
      return sealed;
    })().finally(() => this.sealing.delete(key));
    this.sealing.set(key, work);
    return work;
  }
}
