// @ts-check
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// `npm run build`: the server bundled into dist/ by esbuild, which strips the types without checking them (that is
// `npm run typecheck`'s work), so a build takes about a second. Packages stay in node_modules: native ones (resvg)
// cannot be bundled, and the others load as fast from there. Plain JavaScript, so `npm start` can tell whether the
// build is current without loading a TypeScript loader or esbuild.

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(ROOT, 'dist');
export const ENTRY = join(DIST, 'main.js');
/** The files the build read, relative to the project root: a build older than any of them is stale. */
const INPUTS = join(DIST, 'inputs.json');

/** Bundles main.ts into dist/main.js and the pool's worker into dist/pool-worker.js; answers the milliseconds it took. */
export async function bundle() {
  const started = performance.now();
  const { build } = await import('esbuild');
  await rm(DIST, { recursive: true, force: true });
  const { metafile } = await build({
    absWorkingDir: ROOT,
    // The work pool's threads load their own entry, beside main.js (core/pool/pool.ts finds it there).
    entryPoints: { main: 'main.ts', 'pool-worker': 'core/pool/thread.ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // Splitting keeps a dynamic import a file of its own, loaded when first asked (the 2026-07-28 MCP line).
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    outdir: DIST,
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
  });
  await mkdir(DIST, { recursive: true });
  await writeFile(INPUTS, JSON.stringify([...Object.keys(metafile.inputs), 'cli/build.mjs'].sort()));
  return performance.now() - started;
}

/** Why dist/ must be built again, or null when it holds a build newer than every file it was built from. */
export async function staleness() {
  const built = await stat(ENTRY).catch(() => null);
  if (!built) return 'dist/ holds no build yet';
  /** @type {string[]} */
  const inputs = await readFile(INPUTS, 'utf8').then(JSON.parse, () => []);
  if (inputs.length === 0) return 'the build in dist/ does not list the files it was built from';
  const changed = await Promise.all(inputs.map(async (p) => ((await stat(join(ROOT, p)).catch(() => null))?.mtimeMs ?? Infinity) > built.mtimeMs));
  const first = inputs.find((_, i) => changed[i]);
  return first ? `${first} changed since the last build` : null;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const ms = await bundle();
  process.stdout.write(`built dist/main.js in ${ms.toFixed(0)} ms\n`);
}
