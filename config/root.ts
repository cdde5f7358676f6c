import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project root: the nearest folder above this module holding package.json. The same from the source and from
 * the build in dist/, and whatever the working directory, so documents read from it are never copied and never stale.
 */
export function projectRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error('no package.json above the module, so no project root');
  }
}
