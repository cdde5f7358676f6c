import type { TestContext } from 'vitest';

/**
 * Skips a test that needs what the machine or the shipped data does not hold, saying why: in the test's result (the
 * verbose and JSON reporters show it) and on its output, which every reporter prints.
 */
export function skipBecause(ctx: TestContext, reason: string): never {
  console.log(`skipped: ${reason}`);
  return ctx.skip(reason);
}
