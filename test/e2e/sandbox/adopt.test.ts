import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxInfo } from '../../../electron/contract/index.js';
import { CliSandbox, explain } from '../../support/cliSandbox.js';
import { missing } from '../../support/requirements.js';
import { configureDesktop, desktopContainers, desktopImage, notePagePlaybook } from '../../support/sandboxImage.js';
import { startServe, waitForTaskState } from '../../support/serveProcess.js';

const skip = missing('docker');

// Types into a page, then waits for approval of "Place order", which saves what was typed:
// only the same desktop (page state included) can pass the check after a restart.
const ORDER = notePagePlaybook({
  name: 'adopt',
  typed: 'typed before the crash',
  check: 'typed text saved',
  saved: 'typed before the crash',
});

describe.skipIf(skip)('a desktop survives a runtime restart (real container)', () => {
  let cli: CliSandbox;
  const containers = () => desktopContainers(cli.home);

  beforeAll(async () => {
    await desktopImage();
  }, 600_000);
  afterEach(async () => {
    await cli?.cleanup();
  });

  it('serve killed while a GUI task waits for approval: the next serve resumes it on the same desktop', async () => {
    cli = new CliSandbox();
    await configureDesktop(cli);
    const first = await startServe(cli, 60_000);
    const client = await first.connect();
    const task = await client.call('tasks.create', { playbook: { source: ORDER, baseDir: cli.home }, inputs: {}, start: true });
    await waitForTaskState(client, task.id, ['waiting_approval'], 180_000);
    await client.close();
    const [before] = await containers();
    expect(before?.task).toBe(task.id);

    first.child.child.kill('SIGKILL');
    await first.child.finished(30_000).catch(() => undefined);
    // A runtime that starts without resuming the task leaves its desktop alone.
    const listed = await cli.run(['sandbox', 'list', '--json']);
    expect(listed.code, explain(listed)).toBe(0);
    expect(listed.json<{ sandboxes: SandboxInfo[] }>().sandboxes.map((s) => s.id)).toEqual([before!.id]);

    // The next serve recovers the task; once approved, its click lands on the page as it was left.
    const second = await startServe(cli, 60_000);
    const again = await second.connect();
    const [approval] = (await again.call('approvals.list', { taskId: task.id, status: 'pending' })).approvals;
    await again.call('approvals.decide', { approvalId: approval!.id, decision: 'approve', remember: 'once' });
    const done = await waitForTaskState(again, task.id, ['succeeded', 'failed'], 120_000);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect(done.checks[0]).toMatchObject({ name: 'typed text saved', passed: true });
    await again.close();
    await expect.poll(containers, { timeout: 20_000 }).toEqual([]);
  }, 420_000);
});
