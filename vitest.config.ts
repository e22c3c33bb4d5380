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
    // The SQLite adapter refuses a statement from inside its own transaction (it would hang) — checked in tests.
    env: { AGENT_DESK_STRICT_STORE: '1' },
  },
});
