import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './child.js';

/** Builds the deck as `npm start` does (npm run build: an esbuild bundle in dist/) and answers the entry it then runs. */
export async function buildDeck(): Promise<string> {
  const child = spawn('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  child.stdout.on('data', (c: Buffer) => void (said += c.toString()));
  child.stderr.on('data', (c: Buffer) => void (said += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`npm run build failed: ${said.slice(0, 2000)}`);
  return join(ROOT, 'dist', 'main.js');
}
