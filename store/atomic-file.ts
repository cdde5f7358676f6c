import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a whole file or nothing: the bytes go to a temporary file of a name no other write shares (so two
 * writes of one file at once cannot rename each other's temporary away), are synced, and are renamed over the
 * file. A failed write leaves the old file as it was and takes its temporary file back.
 */
export async function writeAtomic(path: string, bytes: Uint8Array | string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
