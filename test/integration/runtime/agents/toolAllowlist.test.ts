import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../electron/runtime/assembleRuntime.js';
import { ScriptedProvider } from '../../../../electron/runtime/models/scriptedProvider.js';
import type { ModelCallOptions, ModelProvider, ModelRequest } from '../../../../electron/runtime/models/types.js';
import { openLlmRuntime } from '../../../support/llmRuntime.js';
import { ManualClock, openTestRuntime, type TestRuntime } from '../../../support/runtime.js';
import { ScriptedPlanner, withScriptedGoals } from '../../../support/scriptedPlanner.js';
import { testTool } from '../../../support/testTools.js';

let h: TestRuntime;
afterEach(async () => h?.cleanup());

/** Reads a file, then writes one: the write is what a read-only agent must never do. */
const READ_THEN_WRITE = `
name: read-then-write
steps:
  - { id: list, tool: fs.list, args: { path: "." } }
  - { id: write, tool: fs.write, args: { path: forbidden.txt, content: "x" } }
`;

async function playbookTask(rt: Runtime, agent: string | undefined, source = READ_THEN_WRITE) {
  return rt.engine.create({
    title: 'allowlist',
    plan: { kind: 'playbook', source, baseDir: rt.home },
    inputs: {},
    ...(agent !== undefined && { agent }),
  });
}

/** The allowlist refusal a step must carry: effect deny, from the agent, naming agent and tool. */
async function expectAllowlistDenial(rt: Runtime, taskId: string, agent: string, tool: string) {
  const denied = (await rt.engine.steps(taskId)).find((s) => s.status === 'denied');
  expect(denied).toMatchObject({ tool, policy: { effect: 'deny', source: 'agent', agent } });
  expect(denied?.error).toContain(`agent "${agent}" may not use tool "${tool}"`);
  const traced = (await rt.trace.page(taskId, 0, 200)).events.find((e) => e.type === 'step.policy');
  expect(traced?.data).toMatchObject({ effect: 'deny', source: 'agent', agent });
  expect(String(traced?.data.reason)).toContain(`"${tool}"`);
}

describe("an agent's tool allowlist", () => {
  it('a playbook step outside the allowlist is denied with the agent and tool named, and never runs', async () => {
    h = openTestRuntime({});
    await h.rt.agents.create({ name: 'reader', tools: ['fs.read', 'fs.list'] });
    const task = await playbookTask(h.rt, 'reader');
    const done = await h.rt.engine.run(task.id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toContain('agent "reader" may not use tool "fs.write"');
    expect((await h.rt.engine.steps(task.id)).find((s) => s.tool === 'fs.list')?.status).toBe('completed');
    await expectAllowlistDenial(h.rt, task.id, 'reader', 'fs.write');
    expect(existsSync(path.join(done.workspace, 'forbidden.txt'))).toBe(false);
  });

  it('wildcards allow what they match; the same playbook without an agent is unaffected', async () => {
    h = openTestRuntime({});
    await h.rt.agents.create({ name: 'fs-worker', tools: ['fs.*'] });
    const asAgent = await h.rt.engine.run((await playbookTask(h.rt, 'fs-worker')).id);
    expect(asAgent.state, asAgent.stateReason).toBe('succeeded');
    expect((await h.rt.engine.steps(asAgent.id)).map((s) => s.policy)).toEqual([
      expect.objectContaining({ effect: 'allow', agent: 'fs-worker' }),
      expect.objectContaining({ effect: 'allow', agent: 'fs-worker' }),
    ]);
    const noAgent = await h.rt.engine.run((await playbookTask(h.rt, undefined)).id);
    expect(noAgent.state).toBe('succeeded');
  });

  it('a capability step is routed to a tool the agent may use, even on a lower tier', async () => {
    const calls: string[] = [];
    const mcpWriter = testTool({
      name: 'mcp__notes__write',
      tier: 'mcp',
      capabilities: ['file.write'],
      run: async () => calls.push('mcp'),
    });
    h = openTestRuntime({ tools: [mcpWriter] });
    await h.rt.agents.create({ name: 'notes-only', tools: ['mcp__notes__*'] });
    const source = 'name: cap\nsteps:\n  - { id: save, capability: file.write, args: { key: n.txt } }\n';
    const asAgent = await h.rt.engine.run((await playbookTask(h.rt, 'notes-only', source)).id);
    expect(asAgent.state, asAgent.stateReason).toBe('succeeded');
    expect((await h.rt.engine.steps(asAgent.id))[0]).toMatchObject({ tool: 'mcp__notes__write', status: 'completed' });
    expect(calls).toEqual(['mcp']);
  });

  it('an allowlist narrowed by agents.update applies from the next step on', async () => {
    h = openTestRuntime({});
    const agents = h.rt.agents;
    await agents.create({ name: 'worker', tools: ['*'] });
    const task = await playbookTask(h.rt, 'worker');
    await agents.update('worker', { tools: ['fs.list'] });
    expect((await h.rt.engine.run(task.id)).state).toBe('failed');
    await expectAllowlistDenial(h.rt, task.id, 'worker', 'fs.write');
  });

  it('a delegated child is held to its own agent’s allowlist; the parent fails with the child’s reason', async () => {
    const child = READ_THEN_WRITE;
    const planner = new ScriptedPlanner((turn) =>
      turn === 0 ? { tool: 'agents.delegate', args: { children: [{ agent: 'reader', playbook: child }], timeoutMs: 60_000 } } : 'done',
    );
    h = openTestRuntime({ plans: withScriptedGoals(planner) });
    const agents = h.rt.agents;
    await agents.create({ name: 'lead', tools: ['agents.delegate'] });
    await agents.create({ name: 'reader', tools: ['fs.list', 'fs.read'] });
    const parent = await h.rt.engine.create({ title: 'lead', plan: { kind: 'goal', goal: 'lead' }, inputs: {}, agent: 'lead' });
    const done = await h.rt.engine.run(parent.id);
    expect(done.state).toBe('failed');
    const [childTask] = (await h.rt.store.tasks.list({ limit: 10 })).filter((t) => t.parentId === parent.id);
    expect(childTask).toMatchObject({ agent: 'reader', state: 'failed' });
    await expectAllowlistDenial(h.rt, childTask!.id, 'reader', 'fs.write');
    expect((await h.rt.engine.steps(parent.id))[0]?.error).toContain('agent "reader" may not use tool "fs.write"');
  });

  it('a task created by a cron job of an agent runs as that agent and is held to its allowlist', async () => {
    const clock = new ManualClock();
    h = openTestRuntime({ clock });
    await h.rt.agents.create({ name: 'reader', tools: ['fs.list'] });
    const scheduler = h.rt.scheduler;
    scheduler.queue.start();
    await scheduler.add({
      name: 'nightly',
      schedule: '0 * * * *',
      agentId: 'reader',
      target: { kind: 'playbook', source: READ_THEN_WRITE },
    });
    clock.advance(60 * 60_000);
    const [run] = await scheduler.tick();
    await scheduler.queue.drain();
    await scheduler.stop();
    const task = await h.rt.engine.get(run!.taskId!);
    expect(task).toMatchObject({ agent: 'reader', state: 'failed' });
    await expectAllowlistDenial(h.rt, task.id, 'reader', 'fs.write');
  });

  it('a model call to a tool the agent lost after the task started is denied by the gate, never run', async () => {
    const model = new ScriptedProvider([{ calls: [{ name: 'fs_write', arguments: { path: 'x.txt', content: 'x' } }] }, { text: 'done' }]);
    h = openLlmRuntime(model);
    const agents = h.rt.agents;
    await agents.create({ name: 'writer', tools: ['fs.*'] });
    const task = await h.rt.engine.create({ title: 'g', plan: { kind: 'goal', goal: 'write x' }, inputs: {}, agent: 'writer' });
    await agents.update('writer', { tools: ['fs.read'] }); // the model was offered fs.write at the start
    const done = await h.rt.engine.run(task.id);
    expect(done.state).toBe('failed');
    await expectAllowlistDenial(h.rt, task.id, 'writer', 'fs.write');
    expect(existsSync(path.join(done.workspace, 'x.txt'))).toBe(false);
  });

  it('a model planner is offered only the tools the agent may use', async () => {
    const seen: string[][] = [];
    const script = new ScriptedProvider([{ text: 'nothing to do' }, { text: 'nothing to do' }]);
    const recording: ModelProvider = {
      kind: 'recording',
      model: 'scripted',
      complete: (request: ModelRequest, options: ModelCallOptions) => {
        seen.push(request.tools.map((t) => t.name));
        return script.complete(request, options);
      },
    };
    const llm = openLlmRuntime(recording);
    h = llm;
    await h.rt.agents.create({ name: 'reader', tools: ['fs.read', 'fs.list'] });
    const asAgent = await h.rt.engine.create({ title: 'g', plan: { kind: 'goal', goal: 'look around' }, inputs: {}, agent: 'reader' });
    await h.rt.engine.run(asAgent.id);
    const plain = await h.rt.engine.create({ title: 'g', plan: { kind: 'goal', goal: 'look around' }, inputs: {} });
    await h.rt.engine.run(plain.id);

    const [agentTools, plainTools] = seen;
    expect(agentTools?.filter((n) => n !== 'give_up').sort()).toEqual(['fs_list', 'fs_read']);
    expect(plainTools).toEqual(expect.arrayContaining(['fs_write', 'fs_delete', 'http_request']));
  });
});
