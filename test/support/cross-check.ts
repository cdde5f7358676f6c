import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../fixtures/verdict/cross_check.py', import.meta.url));

/** Asks the independent Python computation (test/fixtures/verdict/cross_check.py, standard library only) one request. */
export function crossCheck<T>(request: Record<string, unknown>): T {
  return JSON.parse(execFileSync('python3', [SCRIPT], { input: JSON.stringify(request), encoding: 'utf8', maxBuffer: 1 << 24 })) as T;
}
