import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../support/cliSandbox.js';
import { missing } from '../../../support/requirements.js';
import { openTestRuntime, tempDir, type TestRuntime } from '../../../support/runtime.js';

const noTmpfs = missing('tmpfs');
const CLEANUP = readFileSync(path.join(REPO_ROOT, 'examples/playbooks/cleanup-old-logs.yaml'), 'utf8');

/** Writes a file until the disk has no room left. */
function fillUp(dir: string): void {
  const fd = openSync(path.join(dir, 'filler'), 'w');
  try {
    for (;;) writeSync(fd, Buffer.alloc(64 * 1024));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

let h: TestRuntime | undefined;
let mount: string | undefined;
afterEach(async () => {
  await h?.cleanup();
  if (mount) execFileSync('umount', ['-l', mount]);
  h = undefined;
  mount = undefined;
});

describe('a store that breaks while the runtime serves', () => {
  it.skipIf(noTmpfs)(
    `a disk that fills up answers bad_state, not an internal error${noTmpfs ? ` (skipped: ${noTmpfs})` : ''}`,
    async () => {
      mount = tempDir('agent-desk-tmpfs-');
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mount]);
      h = openTestRuntime({ home: path.join(mount, 'home') });
      const ctx = { scopes: ['operator.admin' as const], clientId: 'test' };
      expect(await h.rt.dispatcher.dispatch({ id: 1, method: 'tasks.list', params: {} }, ctx)).toHaveProperty('result');
      fillUp(mount);
      const response = await h.rt.dispatcher.dispatch(
        { id: 2, method: 'tasks.create', params: { playbook: { source: CLEANUP }, start: false } },
        ctx,
      );
      expect(response).toMatchObject({
        error: {
          code: 'bad_state',
          message: expect.stringMatching(/^the disk holding the data folder is full/),
          details: { state: 'disk_full' },
        },
      });
    },
  );
});
