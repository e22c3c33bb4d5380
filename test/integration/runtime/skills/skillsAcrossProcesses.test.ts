import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../electron/runtime/assembleRuntime.js';
import { createPlaybookTask, openTestRuntime, type TestRuntime } from '../../../support/runtime.js';
import { workspaceSkills, writeSkill } from '../../../support/skillFolders.js';

let h: TestRuntime | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

// Each run stops at an approval (detached), so the next part can be run by the other process.
const playbook = `
name: two processes
steps:
  - { id: make, tool: fs.write, args: { path: old.log, content: "old" } }
  - { id: make2, tool: fs.write, args: { path: other.log, content: "other" } }
  - { id: remove, tool: fs.delete, args: { path: old.log } }
  - { id: skill, tool: skills.read, args: { name: reader } }
  - { id: remove2, tool: fs.delete, args: { path: other.log } }
  - { id: summary, tool: fs.write, args: { path: summary.txt, content: "done" } }
`;

const approvePending = async (rt: Runtime) => {
  const [approval] = await rt.approvals.list({ status: 'pending' });
  expect(approval, 'an approval is pending').toBeDefined();
  await rt.approvals.decide(approval!.id, { decision: 'approve', remember: 'once' }, 'cli:alice');
};

describe('skills in use across processes', () => {
  it('a process that takes a task up again sees the skill another process read meanwhile', async () => {
    h = openTestRuntime();
    const here = h.rt;
    const task = await createPlaybookTask(here, playbook);
    mkdirSync(task.workspace, { recursive: true });
    writeSkill(
      workspaceSkills(task.workspace),
      'reader',
      { name: 'reader', description: 'Reads.', 'allowed-tools': 'fs.read fs.delete' },
      'Read.',
    );

    // This process decides the two writes (no skill in use yet) and stops at the first delete.
    expect((await here.engine.run(task.id, { detachOnApproval: true })).state).toBe('waiting_approval');
    await approvePending(here);

    // Another process (its own connection to the same file) runs on: the delete, the skill read,
    // and stops at the second delete, which the skill allows.
    const other = h.another();
    try {
      expect((await other.engine.run(task.id, { detachOnApproval: true })).state).toBe('waiting_approval');
      await approvePending(other);
    } finally {
      await other.close();
    }

    // Back here: the skill narrows this process too, so the last write is refused.
    const done = await here.engine.run(task.id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toContain('skill "reader" is in use');
    expect((await here.engine.steps(task.id)).map((s) => [s.planStepId, s.status])).toEqual([
      ['make', 'completed'],
      ['make2', 'completed'],
      ['remove', 'completed'],
      ['skill', 'completed'],
      ['remove2', 'completed'],
      ['summary', 'denied'],
    ]);
    expect(existsSync(path.join(task.workspace, 'summary.txt'))).toBe(false);
  });
});
