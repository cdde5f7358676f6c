import { readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';

/**
 * The temporary files the store's write-then-rename leaves when a crash falls between the two: `.<name>.tmp` (the
 * documents' writer) or `.<name>.<12 hex>.tmp` (atomic-file.ts, a name of its own per write) beside the file it was to
 * replace, for the kinds of file the store writes that way (JSON documents, plates' PNGs, images).
 */
const TEMP = /^\.[^.].*\.(json|png|jpg|webp|gif)(\.[0-9a-f]{12})?\.tmp$/;

/**
 * Removes the temporary files a crash left in the data directory and its folders. Run at start, before anything
 * writes: such a file is never part of the data (the rename that would have made it so never happened), and nothing
 * else in the directory is touched.
 */
export async function removeTempFiles(dir: string): Promise<void> {
  const names = await readdir(dir, { recursive: true }).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? [] : Promise.reject(e)));
  const temps = names.filter((n) => TEMP.test(basename(n)));
  await Promise.all(temps.map((n) => rm(join(dir, n), { force: true })));
}
