import { writeFileSync } from 'node:fs';
import type { Reporter, SerializedError, TestModule, Vitest } from 'vitest/node';
import { fileTimes, projectTimes, timeLines } from './timeReport.js';

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

/**
 * Prints each project's time and the slowest files (AGENT_DESK_TEST_TIMES=FILE also writes every
 * file's time there as JSON), then the plain closing line CI reads. A suite that fails to load
 * counts as failed.
 */
export default class SummaryReporter implements Reporter {
  private root = process.cwd();
  private readonly spans = new Map<string, { start: number; end: number }>();

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }

  onTestModuleStart(module: TestModule): void {
    this.spans.set(module.moduleId, { start: Date.now(), end: Date.now() });
  }

  onTestModuleEnd(module: TestModule): void {
    const span = this.spans.get(module.moduleId);
    if (span) span.end = Date.now();
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const files = fileTimes(testModules, this.spans, this.root);
    const projects = projectTimes(testModules, this.spans, files);
    if (process.env.AGENT_DESK_TEST_TIMES) writeFileSync(process.env.AGENT_DESK_TEST_TIMES, JSON.stringify({ projects, files }, null, 1));
    process.stdout.write(`\n${timeLines(projects, files).join('\n')}\n`);
    process.stdout.write(`\n${closingLine(countRun(testModules, unhandledErrors))}\n`);
  }
}
