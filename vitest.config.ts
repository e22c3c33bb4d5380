import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One throw-away PostgreSQL cluster for the run (the store's PostgreSQL adapter is tested on it).
    globalSetup: ['./test/support/postgresCluster.ts'],
    reporters: ['default', './test/support/summaryReporter.ts'],
  },
});
