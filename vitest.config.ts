import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'engine/**/*.test.ts'],
    // A fixture's own tests run only when a test runs them (a run that must fail, say).
    exclude: [...configDefaults.exclude, 'test/fixtures/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Test files start their own decks on free ports; two cores, so two at a time.
    maxWorkers: 2,
    // One real PostgreSQL server for the tests of the store on PostgreSQL.
    globalSetup: ['test/support/postgres-global.ts'],
  },
});
