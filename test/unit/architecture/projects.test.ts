import { readdirSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/cliSandbox.js';
import { testProjects } from '../../support/projects.js';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' || entry.name === 'node_modules' ? [] : testFiles(full);
    return /\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The projects whose include globs take `file` (relative to the repository). */
function projectsOf(file: string): string[] {
  return testProjects()
    .filter((p) => (p.test?.include ?? []).some((glob) => picomatch(glob)(file)))
    .map((p) => p.test?.name as string);
}

describe('the suite’s projects', () => {
  it('put every test file in exactly one project (unit, integration or e2e)', () => {
    const files = testFiles(path.join(REPO_ROOT, 'test')).map((f) => path.relative(REPO_ROOT, f));
    expect(files.length).toBeGreaterThan(300);
    const notInOne = files.map((f) => [f, projectsOf(f)] as const).filter(([, projects]) => projects.length !== 1);
    expect(notInOne).toEqual([]);
  });

  it('run the unit files first, then integration and e2e together on one set of workers', () => {
    const projects = testProjects().map((p) => [p.test?.name, p.test?.sequence?.groupOrder, p.test?.maxWorkers]);
    expect(projects.map(([name]) => name)).toEqual(['unit', 'integration', 'e2e']);
    const [unit, integration, e2e] = projects;
    expect(unit![1]).toBeLessThan(integration![1] as number);
    // Vitest refuses projects of one group with different worker counts.
    expect([e2e![1], e2e![2]]).toEqual([integration![1], integration![2]]);
  });

  it('would catch a file outside every project', () => {
    expect(projectsOf('test/elsewhere/stray.test.ts')).toEqual([]);
    expect(projectsOf('test/e2e/cli/queue.test.ts')).toEqual(['e2e']);
  });
});
