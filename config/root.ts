import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project root: the nearest folder above this module holding package.json. The same from the source and from
 * the bundle in dist/, and whatever the working directory, so the files the deck reads at run time (the join page,
 * the skill documents, the sample tape) are found where they are kept, never copied and never stale.
 */
function projectRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error('no package.json above the deck\'s module, so no project root');
  }
}

export const PROJECT_ROOT = projectRoot();
