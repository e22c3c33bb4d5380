import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatProvider, createGoalTask, openLlmRuntime } from '../../../support/llmRuntime.js';
import { ModelServer } from '../../../support/modelServer.js';
import { pollUntil } from '../../../support/poll.js';
import { createPlaybookTask, openTestRuntime, waitForState, type TestRuntime } from '../../../support/runtime.js';

let h: TestRuntime | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const denyPending = async (rt: TestRuntime['rt'], reason: string) => {
  const [approval] = await rt.approvals.list({ status: 'pending' });
  expect(approval, 'an approval is pending').toBeDefined();
  await rt.approvals.decide(approval!.id, { decision: 'deny', remember: 'once', reason }, 'cli:alice');
};

describe('a denial does not end a goal task', () => {
  let server: ModelServer;
  beforeEach(async () => {
    server = await new ModelServer().start();
  });
  afterEach(async () => server.close());

  it('the model gets the denial as the tool error in its next request, does the harmless part, and the task succeeds by its checks', async () => {
    server.script(
      'chat',
      { toolCalls: [{ name: 'fs_delete', arguments: { path: 'old.log' } }] },
      { toolCalls: [{ name: 'fs_write', arguments: { path: 'summary.txt', content: 'kept old.log; summary written' } }] },
      { text: 'Could not delete old.log (denied); wrote the summary.' },
    );
    const llm = openLlmRuntime(chatProvider(server.url), [
      { type: 'file_contains', path: 'summary.txt', text: 'summary written' },
      { type: 'file_exists', path: 'old.log', exists: true },
    ]);
    h = llm;
    const task = await createGoalTask(llm.rt, 'Delete old.log and write summary.txt');
    mkdirSync(task.workspace, { recursive: true });
    writeFileSync(path.join(task.workspace, 'old.log'), 'audit trail\n');

    const running = llm.rt.engine.run(task.id);
    await waitForState(llm.rt, task.id, ['waiting_approval']);
    await denyPending(llm.rt, 'keep it for the audit');
    const done = await running;

    expect(done.state, done.stateReason).toBe('succeeded');
    expect(readFileSync(path.join(done.workspace, 'summary.txt'), 'utf8')).toBe('kept old.log; summary written');
    expect(existsSync(path.join(done.workspace, 'old.log'))).toBe(true);
    const second = server.received('chat')[1]!.body.messages as { role: string; content?: string }[];
    const toolAnswer = second.find((m) => m.role === 'tool');
    expect(toolAnswer?.content).toContain('denied by the user: keep it for the audit');
    expect((await llm.rt.engine.steps(task.id)).map((s) => [s.tool, s.status])).toEqual([
      ['fs.delete', 'denied'],
      ['fs.write', 'completed'],
    ]);
  });

  it('a denial made while no run waited (run detached, decided from the CLI) reaches the model when the task resumes', async () => {
    server.script(
      'chat',
      { toolCalls: [{ name: 'fs_delete', arguments: { path: 'old.log' } }] },
      { toolCalls: [{ name: 'fs_write', arguments: { path: 'summary.txt', content: 'summary written' } }] },
      { text: 'Kept old.log.' },
    );
    const llm = openLlmRuntime(chatProvider(server.url), [{ type: 'file_contains', path: 'summary.txt', text: 'summary written' }]);
    h = llm;
    const task = await createGoalTask(llm.rt, 'Delete old.log and write summary.txt');
    mkdirSync(task.workspace, { recursive: true });
    writeFileSync(path.join(task.workspace, 'old.log'), 'audit trail\n');
    expect((await llm.rt.engine.run(task.id, { detachOnApproval: true })).state).toBe('waiting_approval');
    await denyPending(llm.rt, 'not the audit log');
    const done = await llm.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    const second = server.received('chat')[1]!.body.messages as { role: string; content?: string }[];
    expect(second.find((m) => m.role === 'tool')?.content).toContain('denied by the user: not the audit log');
    expect(existsSync(path.join(done.workspace, 'old.log'))).toBe(true);
  });

  it('a model that keeps asking for what was denied is stopped after five denials in a row', async () => {
    const again = { toolCalls: [{ name: 'fs_delete', arguments: { path: 'old.log' } }] };
    server.script('chat', again, again, again, again, again, { text: 'unreachable' });
    const llm = openLlmRuntime(chatProvider(server.url));
    h = llm;
    const task = await createGoalTask(llm.rt, 'Delete old.log');
    mkdirSync(task.workspace, { recursive: true });
    writeFileSync(path.join(task.workspace, 'old.log'), 'x');
    const running = llm.rt.engine.run(task.id);
    for (let i = 0; i < 5; i++) {
      await pollUntil(`approval ${i + 1}`, async () =>
        (await llm.rt.approvals.list({ status: 'pending' })).length > 0 ? true : undefined,
      );
      await denyPending(llm.rt, `no (${i + 1})`);
    }
    const done = await running;
    expect(done.state).toBe('failed');
    expect(done.stateReason).toContain('5 tool calls in a row failed; the last: denied by the user: no (5)');
    expect(existsSync(path.join(done.workspace, 'old.log'))).toBe(true);
  });
});

const playbook = (onDeny: string) => `
name: tidy
steps:
  - id: make
    tool: fs.write
    args: { path: old.log, content: "old\\n" }
  - id: remove
    tool: fs.delete
    args: { path: old.log }
${onDeny}
  - id: summary
    tool: fs.write
    args: { path: summary.txt, content: "tidied\\n" }
acceptance:
  - { type: file_exists, path: summary.txt, exists: true }
`;

describe('a denial in a playbook', () => {
  it('fails the task by default', async () => {
    h = openTestRuntime();
    const task = await createPlaybookTask(h.rt, playbook(''));
    await h.rt.engine.run(task.id, { detachOnApproval: true });
    await denyPending(h.rt, 'keep it');
    const done = await h.rt.engine.run(task.id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toBe('step 2 (fs.delete) denied by cli:alice: keep it');
    expect(existsSync(path.join(done.workspace, 'summary.txt'))).toBe(false);
  });

  it('continues with the next step when the step says onDeny: continue', async () => {
    h = openTestRuntime();
    const task = await createPlaybookTask(h.rt, playbook('    onDeny: continue'));
    await h.rt.engine.run(task.id, { detachOnApproval: true });
    await denyPending(h.rt, 'keep it');
    const done = await h.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect(existsSync(path.join(done.workspace, 'old.log'))).toBe(true);
    expect((await h.rt.engine.steps(task.id)).map((s) => [s.planStepId, s.status, s.error])).toEqual([
      ['make', 'completed', undefined],
      ['remove', 'denied', 'denied by the user: keep it'],
      ['summary', 'completed', undefined],
    ]);
  });

  it('onDeny accepts only fail or continue', async () => {
    h = openTestRuntime();
    await expect(createPlaybookTask(h!.rt, playbook('    onDeny: ignore'))).rejects.toThrow(/onDeny/);
  });
});
