import type { Blobs } from './blobs.js';

/** Attached images' bytes, one blob each (images/<id>.<ext>), each written whole or not at all. */
export class ImageFiles {
  constructor(private readonly kept: Blobs) {}

  put(id: string, ext: string, bytes: Uint8Array): Promise<void> {
    return this.kept.write(`${id}.${ext}`, bytes);
  }

  remove(id: string, ext: string): Promise<void> {
    return this.kept.remove(`${id}.${ext}`);
  }
}
