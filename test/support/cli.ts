import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BARS_CSV_HEADER, type BarTuple } from '../../engine/bars.js';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * Runs one of the deck's command-line tools (npm run tape / forecast / store / cards) on a data directory, as an
 * operator does, with `env` on top of this process's (a variable set undefined is left out).
 */
export async function runCli(
  tool: 'tape' | 'forecast' | 'store' | 'cards',
  args: string[],
  dataDir: string,
  env: Record<string, string | undefined> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', `cli/${tool}.ts`, ...args], {
      cwd: ROOT,
      env: { ...process.env, DECK_DATA: dataDir, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

/** Writes bars as a CSV file with the tape's header (t,o,h,l,c,v); answers its path. */
export async function writeCsv(dir: string, name: string, rows: readonly BarTuple[]): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `${BARS_CSV_HEADER}\n${rows.map((r) => r.join(',')).join('\n')}\n`);
  return path;
}

/** The path of a file of the shipped sample (as sampleFile reads it), to import as an operator would. */
export const samplePath = (name: string): string => join(ROOT, 'tape', 'sample', `${name}.csv`);
