import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAtomic } from './atomic-file.js';

/** Attached images' bytes, one file each (images/<id>.<ext>), each written whole or not at all. */
export class ImageFiles {
  constructor(private readonly dir: string) {}

  private path = (id: string, ext: string) => join(this.dir, 'images', `${id}.${ext}`);

  async put(id: string, ext: string, bytes: Uint8Array): Promise<void> {
    await mkdir(join(this.dir, 'images'), { recursive: true });
    await writeAtomic(this.path(id, ext), bytes);
  }

  async remove(id: string, ext: string): Promise<void> {
    await rm(this.path(id, ext), { force: true });
  }
}
