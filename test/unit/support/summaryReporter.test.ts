import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/cliSandbox.js';

describe('the summary reporter', () => {
  it('counts a suite that fails to load as a failed suite, so "0 failed" cannot hide it', () => {
    const vitest = path.join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    const run = spawnSync(process.execPath, [vitest, 'run', '--root', path.join(REPO_ROOT, 'test/fixtures/reporter')], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status, run.stdout + run.stderr).toBe(1);
    expect(run.stdout.trim().split('\n').at(-1)).toBe('1 passed, 0 failed, 1 skipped; 1 of 2 suites failed');
  });
});
