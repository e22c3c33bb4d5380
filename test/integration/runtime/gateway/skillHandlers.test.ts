import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallContext } from '../../../../electron/runtime/gateway/handlers.js';
import { createPlaybookTask, openTestRuntime, type TestRuntime } from '../../../support/runtime.js';
import { workspaceSkills, writeSkill } from '../../../support/skillFolders.js';

let h: TestRuntime;
afterEach(async () => h?.cleanup());

// A phone or a colleague holding a read-only token may see what skills a task has.
const reader: CallContext = { scopes: ['operator.read'], clientId: 'ws:reader' };
const call = (method: string, params: unknown) => h.rt.dispatcher.dispatch({ id: 1, method, params }, reader);

const playbook = `
name: read with a skill
steps:
  - { id: skill, tool: skills.read, args: { name: reader } }
  - { id: read, tool: fs.read, args: { path: notes.txt } }
`;

describe('skills.list over RPC', () => {
  it("lists the user's skills, a task's workspace skills, the folders skipped, and what the task has in use", async () => {
    h = openTestRuntime();
    writeSkill(path.join(h.home, 'skills'), 'mailer', { name: 'mailer', description: 'Sends mail.' }, 'Send.');
    const task = await createPlaybookTask(h.rt, playbook);
    mkdirSync(task.workspace, { recursive: true });
    writeFileSync(path.join(task.workspace, 'notes.txt'), 'notes');
    const skills = workspaceSkills(task.workspace);
    writeSkill(skills, 'reader', { name: 'reader', description: 'Reads files.', 'allowed-tools': 'fs.read' }, 'Read.');
    mkdirSync(path.join(skills, 'broken'));

    const userOnly = (await call('skills.list', {})) as { result: { skills: { name: string }[]; inUse?: unknown } };
    expect(userOnly.result.skills.map((s) => s.name)).toEqual(['mailer']);
    expect(userOnly.result.inUse).toBeUndefined();

    expect((await h.rt.engine.run(task.id)).state).toBe('succeeded');
    const forTask = (await call('skills.list', { taskId: task.id })) as {
      result: {
        skills: { name: string; source: string; allowedTools?: string[] }[];
        problems: { folder: string }[];
        inUse: { skill: string; stepId: string; allowedTools?: string[] }[];
      };
    };
    expect(forTask.result.skills.map((s) => [s.name, s.source, s.allowedTools])).toEqual([
      ['mailer', 'user', undefined],
      ['reader', 'workspace', ['fs.read']],
    ]);
    expect(forTask.result.problems.map((p) => p.folder)).toEqual(['broken']);
    const readStep = (await h.rt.engine.steps(task.id)).find((s) => s.tool === 'skills.read')!;
    expect(forTask.result.inUse).toEqual([{ skill: 'reader', stepId: readStep.id, allowedTools: ['fs.read'] }]);
  });

  it('an unknown task is not_found, and bad params are invalid_params', async () => {
    h = openTestRuntime();
    expect(await call('skills.list', { taskId: 'tsk_nope' })).toMatchObject({ error: { code: 'not_found' } });
    expect(await call('skills.list', { taskId: 7 })).toMatchObject({ error: { code: 'invalid_params' } });
    expect(await call('skills.list', { workspace: '/etc' })).toMatchObject({ error: { code: 'invalid_params' } });
  });
});
