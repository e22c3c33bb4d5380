import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Step } from '../../../../electron/contract/index.js';
import { SkillActivations } from '../../../../electron/runtime/skills/activations.js';
import type { SkillsReadArgs, SkillsReadOutput } from '../../../../electron/runtime/skills/skillsReadTool.js';
import { ToolError, type Tool } from '../../../../electron/runtime/tools/types.js';
import { chatProvider, createGoalTask, openLlmRuntime } from '../../../support/llmRuntime.js';
import type { TestRuntime } from '../../../support/runtime.js';
import { workspaceSkills, writeSkill } from '../../../support/skillFolders.js';

let h: TestRuntime;
afterEach(async () => h?.cleanup());
// Goal tasks are created, never started: no model is called.
const openTestRuntime = (): TestRuntime => openLlmRuntime(chatProvider('http://127.0.0.1:9/v1'));

async function setUp() {
  h = openTestRuntime();
  const task = await createGoalTask(h.rt, 'use skills');
  const root = workspaceSkills(task.workspace);
  const dir = writeSkill(
    root,
    'pdf-tools',
    { name: 'pdf-tools', description: 'PDF work.', 'allowed-tools': 'fs.read fs.list' },
    '# PDF\nSee references/guide.md.',
  );
  mkdirSync(path.join(dir, 'references'));
  mkdirSync(path.join(dir, 'scripts'));
  writeFileSync(path.join(dir, 'references', 'guide.md'), 'The guide.');
  writeFileSync(path.join(dir, 'scripts', 'run.sh'), 'echo run');
  writeSkill(root, 'open', { name: 'open', description: 'No narrowing.' }, 'Anything.');
  const tool = h.rt.registry.get('skills.read') as Tool<SkillsReadArgs>;
  let n = 0;
  const run = (args: SkillsReadArgs) =>
    tool.execute(tool.input.parse(args), {
      taskId: task.id,
      stepId: `stp_${++n}`,
      idempotencyKey: `k${n}`,
      workspace: task.workspace,
      signal: new AbortController().signal,
    }) as Promise<SkillsReadOutput>;
  return { task, dir, run };
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

describe('skills.read', () => {
  it('returns the instructions with the list of files, and puts the skill in use', async () => {
    const { task, run } = await setUp();
    const out = await run({ name: 'pdf-tools' });
    expect(out).toEqual({
      skill: 'pdf-tools',
      source: 'workspace',
      file: 'SKILL.md',
      content: '# PDF\nSee references/guide.md.',
      truncated: false,
      allowedTools: ['fs.read', 'fs.list'],
      files: ['references/guide.md', 'scripts/run.sh'],
    });
    expect(await h.rt.skills.inUse(task.id)).toEqual([{ skill: 'pdf-tools', stepId: 'stp_1', allowedTools: ['fs.read', 'fs.list'] }]);
    expect(await h.rt.skills.refusal(task.id, { tool: 'fs.delete', subject: 'a.txt' })).toBe(
      'skill "pdf-tools" is in use and allows only fs.read, fs.list, skills.read (its allowed-tools); "fs.delete" on "a.txt" is not among them',
    );
  });

  it('reads a file of the skill on demand', async () => {
    const { run } = await setUp();
    expect(await run({ name: 'pdf-tools', file: 'references/guide.md' })).toMatchObject({
      file: 'references/guide.md',
      content: 'The guide.',
    });
  });

  it.each([
    ['an absolute path', '/etc/passwd', 'is absolute'],
    ['a ".." part', '../open/SKILL.md', 'contains ".."'],
    ['a ".." inside the path', 'references/../../open/SKILL.md', 'contains ".."'],
  ])('refuses %s', async (_case, file, expected) => {
    const { task, run } = await setUp();
    const error = await refusal(run({ name: 'pdf-tools', file }));
    expect(error.code).toBe('path_outside_skill');
    expect(error.message).toContain(expected);
    expect(await h.rt.skills.inUse(task.id)).toEqual([]);
  });

  it('refuses a file that leads out of the skill folder through a symlink', async () => {
    const { dir, run } = await setUp();
    const outside = path.join(h.home, 'secret.txt');
    writeFileSync(outside, 'do not read');
    symlinkSync(outside, path.join(dir, 'references', 'leak.md'));
    const error = await refusal(run({ name: 'pdf-tools', file: 'references/leak.md' }));
    expect(error.code).toBe('path_outside_skill');
    expect(error.message).toMatch(/goes through a symlink to .*secret\.txt, outside the skill folder/);
  });

  it('names the skills there are when asked for one that is not, and why a broken one cannot be used', async () => {
    const { task, run } = await setUp();
    expect((await refusal(run({ name: 'nope' }))).message).toBe('no skill named "nope" (known: open, pdf-tools)');
    writeSkill(workspaceSkills(task.workspace), 'broken', { name: 'broken' }, 'x');
    expect((await refusal(run({ name: 'broken' }))).message).toBe('skill "broken" cannot be used: description: required');
  });

  it('narrows further with every skill read and never widens again', async () => {
    const { task, run } = await setUp();
    await run({ name: 'pdf-tools' });
    await run({ name: 'open' });
    expect((await h.rt.skills.inUse(task.id)).map((a) => a.skill)).toEqual(['pdf-tools', 'open']);
    expect(await h.rt.skills.refusal(task.id, { tool: 'fs.write', subject: 'x' })).toContain('skill "pdf-tools" is in use');
    expect(await h.rt.skills.refusal(task.id, { tool: 'fs.read', subject: 'x' })).toBeUndefined();
  });
});

describe('SkillActivations', () => {
  const stepOf = (taskId: string, index: number, output: unknown): Step => ({
    id: `stp_${taskId}_${index}`,
    taskId,
    index,
    attempt: 1,
    tool: 'skills.read',
    args: { name: 'x' },
    status: 'completed',
    idempotencyKey: `k${index}`,
    readOnly: false,
    idempotent: true,
    tokens: 0,
    costUsd: 0,
    startedAt: new Date().toISOString(),
    output,
  });

  it('reads the skills in use back from completed skills.read steps (a new process narrows the same)', async () => {
    h = openTestRuntime();
    const task = await createGoalTask(h.rt, 'restart');
    await h.rt.store.steps.save(stepOf(task.id, 0, { skill: 'reader', allowedTools: ['fs.read'] }));
    await h.rt.store.steps.save(stepOf(task.id, 1, { skill: 'open', allowedTools: null }));
    const fresh = new SkillActivations(h.rt.store.sql);
    expect(await fresh.inUse(task.id)).toEqual([
      { skill: 'reader', stepId: `stp_${task.id}_0`, allowedTools: ['fs.read'] },
      { skill: 'open', stepId: `stp_${task.id}_1` },
    ]);
    expect(await fresh.refusal(task.id, { tool: 'fs.read', subject: 'a' })).toBeUndefined();
    expect(await fresh.refusal(task.id, { tool: 'fs.write', subject: 'a' })).toContain('"fs.write" on "a" is not among them');
  });

  it('sees a skill another process read once it takes the task up again (reload)', async () => {
    h = openTestRuntime();
    const task = await createGoalTask(h.rt, 'two processes');
    const here = new SkillActivations(h.rt.store.sql);
    expect(await here.refusal(task.id, { tool: 'fs.delete', subject: 'a' })).toBeUndefined();
    // The other process (a `run --resume` while `serve` waits), on its own connection to the same
    // file, completes a read of a narrowing skill while this one does not hold the task.
    const other = h.another();
    try {
      await other.store.steps.save(stepOf(task.id, 0, { skill: 'reader', allowedTools: ['fs.read'] }));
    } finally {
      await other.close();
    }
    here.reload(task.id); // what the run does when it claims the task
    expect(await here.refusal(task.id, { tool: 'fs.delete', subject: 'a' })).toContain('skill "reader" is in use');
  });

  it('sees a read of its own process before and after its row lands', async () => {
    h = openTestRuntime();
    const task = await createGoalTask(h.rt, 'one process');
    const here = new SkillActivations(h.rt.store.sql);
    expect(await here.refusal(task.id, { tool: 'fs.delete', subject: 'a' })).toBeUndefined();
    const step = stepOf(task.id, 0, { skill: 'reader', allowedTools: ['fs.read'] });
    here.activate(task.id, { skill: 'reader', stepId: step.id, allowedTools: ['fs.read'] });
    expect(await here.refusal(task.id, { tool: 'fs.delete', subject: 'a' })).toContain('skill "reader" is in use');
    await h.rt.store.steps.save(step);
    expect(await here.refusal(task.id, { tool: 'fs.delete', subject: 'a' })).toContain('skill "reader" is in use');
    expect(await here.refusal(task.id, { tool: 'fs.delete', subject: 'a' })).toContain('skill "reader" is in use');
  });

  it('treats a record it cannot read as allowing only skills.read (fail closed)', async () => {
    h = openTestRuntime();
    const task = await createGoalTask(h.rt, 'garbled');
    await h.rt.store.steps.save(stepOf(task.id, 0, 'not an object'));
    const fresh = new SkillActivations(h.rt.store.sql);
    expect(await fresh.refusal(task.id, { tool: 'fs.read', subject: 'a' })).toContain('skill "(unreadable record)" is in use');
    expect(await fresh.refusal(task.id, { tool: 'skills.read', subject: 'skill:x' })).toBeUndefined();
  });
});
