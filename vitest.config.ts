import { defineConfig } from 'vitest/config';
import { testProjects } from './test/support/projects.js';
import TimedSequencer from './test/support/timedSequencer.js';

// Three projects: unit first, then integration and e2e side by side; test/support/projects.ts says
// why and how many files at once. One throw-away PostgreSQL cluster serves the whole run (the
// store's PostgreSQL adapter is tested on it).
export default defineConfig({
  test: {
    globalSetup: ['./test/support/postgresCluster.ts'],
    reporters: ['default', './test/support/summaryReporter.ts'],
    // An order planned from measured file times (a fresh clone has no vitest cache to go by).
    sequence: { sequencer: TimedSequencer },
    projects: testProjects(),
  },
});
