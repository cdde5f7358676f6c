import { spawn } from 'node:child_process';
import { cp, symlink } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { ROOT } from './child.js';

const NOT_SOURCE = new Set(['node_modules', 'data', 'test', 'bench']);

/**
 * The deck compiled ahead of time (tsc, emit only) into `out`, to be run by plain node: what start-up
 * costs without the tsx loader. Files the code reads beside itself (such as the join page) are copied,
 * and node_modules is linked so packages resolve as they do from the project.
 */
export async function compileDeck(out: string): Promise<string> {
  await cp(ROOT, out, {
    recursive: true,
    filter: (src) => {
      const top = relative(ROOT, src).split(sep)[0]!;
      return top === '' || (!NOT_SOURCE.has(top) && !top.startsWith('.') && !src.endsWith('.ts'));
    },
  });
  await symlink(join(ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const child = spawn(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit', 'false', '--noCheck', '--outDir', out], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  child.stdout.on('data', (c: Buffer) => void (said += c.toString()));
  child.stderr.on('data', (c: Buffer) => void (said += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`tsc could not emit the deck: ${said.slice(0, 2000)}`);
  return join(out, 'main.js');
}
