import os from 'node:os';
import type { TestProjectInlineConfiguration } from 'vitest/config';

/** A vitest project of this suite: the folder its files live in, when it runs, and how many files at once. */
export interface SuiteProject {
  name: 'unit' | 'integration' | 'e2e';
  /** Every test file under this folder belongs to this project, and to no other. */
  folder: string;
  /** Groups run one after another; projects of one group run side by side, on one set of workers. */
  group: number;
  /** Files at once (the same within a group); AGENT_DESK_TEST_WORKERS_<GROUP NAME> overrides it. */
  workers: number;
}

const cores = os.availableParallelism();

/**
 * Unit files first, one per core: CPU-bound and short, they say in seconds whether the rest is
 * worth running. Integration and e2e files then share the workers: most of their time is spent
 * waiting on child processes, Chromium, Docker and PostgreSQL, and a few heavy ones hold a slot of
 * their own (test/support/heavySlot.ts) that runs them one at a time while the light ones fill in.
 * The numbers were measured on 2 cores (docs/benchmarks.md, "The suite"): vitest's own default
 * there is one file at a time.
 */
export const SUITE_PROJECTS: readonly SuiteProject[] = [
  { name: 'unit', folder: 'test/unit', group: 0, workers: cores },
  { name: 'integration', folder: 'test/integration', group: 1, workers: cores },
  { name: 'e2e', folder: 'test/e2e', group: 1, workers: cores },
];

/** The variable that sets a group's workers: named after its first project (UNIT, INTEGRATION). */
const workersVariable = (p: SuiteProject): string =>
  `AGENT_DESK_TEST_WORKERS_${SUITE_PROJECTS.find((q) => q.group === p.group)!.name.toUpperCase()}`;

const workersFor = (p: SuiteProject): number => {
  const set = Number(process.env[workersVariable(p)]);
  return Number.isInteger(set) && set > 0 ? set : p.workers;
};

/** The projects as vitest takes them. */
export function testProjects(): TestProjectInlineConfiguration[] {
  return SUITE_PROJECTS.map((p) => ({
    test: {
      name: p.name,
      include: [`${p.folder}/**/*.test.ts`],
      testTimeout: 60_000,
      hookTimeout: 60_000,
      pool: 'forks',
      maxWorkers: workersFor(p),
      sequence: { groupOrder: p.group },
      // The SQLite adapter refuses a statement from inside its own transaction (it would hang) — checked in tests.
      env: { AGENT_DESK_STRICT_STORE: '1' },
    },
  }));
}
