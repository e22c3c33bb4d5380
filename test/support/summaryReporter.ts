import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/** The counts behind the closing line. */
export interface RunCounts {
  passed: number;
  failed: number;
  skipped: number;
  suites: number;
  /** Test files that failed, including those that never loaded (they have no tests to count). */
  failedSuites: number;
  /** Errors outside any test (an unhandled rejection, say): each fails the run. */
  unhandledErrors: number;
}

/** Counts a finished run: tests by state, and suites that failed or could not load. */
export function countRun(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError> = []): RunCounts {
  const counts: RunCounts = {
    passed: 0,
    failed: 0,
    skipped: 0,
    suites: testModules.length,
    failedSuites: 0,
    unhandledErrors: unhandledErrors.length,
  };
  for (const module of testModules) {
    if (module.state() === 'failed' || module.errors().length > 0) counts.failedSuites++;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') counts.passed++;
      else if (state === 'failed') counts.failed++;
      else counts.skipped++;
    }
  }
  return counts;
}

/** The closing line CI reads, e.g. `812 passed, 0 failed, 3 skipped; 0 of 140 suites failed`. */
export function closingLine(c: RunCounts): string {
  const unhandled = c.unhandledErrors > 0 ? `; ${c.unhandledErrors} unhandled errors` : '';
  return `${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped; ${c.failedSuites} of ${c.suites} suites failed${unhandled}`;
}

/** Prints the plain closing line CI reads. A suite that fails to load counts as failed. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    process.stdout.write(`\n${closingLine(countRun(testModules, unhandledErrors))}\n`);
  }
}
