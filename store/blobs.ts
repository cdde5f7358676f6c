import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeAtomic } from './atomic-file.js';

/** What the store keeps as blobs: the seals of past windows, sealed plates, attached images, kept rehearsals' trades. */
export const BLOB_KINDS = ['seals', 'plates', 'images', 'trades'] as const;
export type BlobKind = (typeof BLOB_KINDS)[number];

/**
 * Bytes kept by name, one kind at a time (seals, plates, images, rehearsals' trades): each written whole or not at all. The JSON store
 * keeps them as files of a folder (<folder>/<name>); PostgreSQL as rows.
 */
export interface Blobs {
  read(name: string): Promise<Buffer | null>;
  /** Whether bytes are kept under the name, without reading them. */
  has(name: string): Promise<boolean>;
  write(name: string, bytes: Uint8Array): Promise<void>;
  /** Keeps `bytes` unless bytes are kept under the name already; answers the kept ones, whichever they are. */
  keepFirst(name: string, bytes: Uint8Array): Promise<Buffer>;
  remove(name: string): Promise<void>;
}

/** Blobs as files of one folder (a name may hold slashes: sub-folders). */
export class FileBlobs implements Blobs {
  /** The last write of each name still running: a keepFirst of the same name waits for it. */
  private readonly keeping = new Map<string, Promise<Buffer>>();

  constructor(private readonly folder: string) {}

  private path(name: string): string {
    return join(this.folder, name);
  }

  read(name: string): Promise<Buffer | null> {
    return readFile(this.path(name)).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? null : Promise.reject(e)));
  }

  has(name: string): Promise<boolean> {
    return stat(this.path(name)).then(
      () => true,
      (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? false : Promise.reject(e)),
    );
  }

  async write(name: string, bytes: Uint8Array): Promise<void> {
    const path = this.path(name);
    await mkdir(dirname(path), { recursive: true });
    await writeAtomic(path, bytes);
  }

  keepFirst(name: string, bytes: Uint8Array): Promise<Buffer> {
    const before = this.keeping.get(name) ?? Promise.resolve(null);
    const work = before
      .catch(() => null)
      .then(async () => {
        const kept = await this.read(name);
        if (kept) return kept;
        await this.write(name, bytes);
        return Buffer.from(bytes);
      })
      .finally(() => {
        if (this.keeping.get(name) === work) this.keeping.delete(name);
      });
    this.keeping.set(name, work);
    return work;
  }

  remove(name: string): Promise<void> {
    return rm(this.path(name), { force: true });
  }
}
