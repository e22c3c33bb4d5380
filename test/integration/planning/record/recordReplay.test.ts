import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALL_SCOPES, type AcceptanceCheck, type Playbook, type Task } from '../../../../electron/contract/index.js';
import type { ModelProvider } from '../../../../electron/runtime/models/types.js';
import { withLlmGoals } from '../../../../electron/runtime/planning/llm/goalPlans.js';
import { parsePlaybook } from '../../../../electron/runtime/planning/playbook/parse.js';
import type { HealingPlanner } from '../../../../electron/runtime/planning/record/healingPlanner.js';
import { withPlaybookHealing } from '../../../../electron/runtime/planning/record/replayPlans.js';
import { chatProvider, TEST_PRICES } from '../../../support/llmRuntime.js';
import { ModelServer } from '../../../support/modelServer.js';
import { openTestRuntime, tempDir, type TestRuntime } from '../../../support/runtime.js';

const ACCEPTANCE: AcceptanceCheck[] = [{ type: 'file_contains', path: 'out.txt', text: 'CHECKED' }];
const GOAL = 'Read config.json and reports/today.txt, then write CHECKED into out.txt';

/** A runtime whose goal tasks are planned by the model and whose recorded playbooks heal through it. */
function openRecordingRuntime(provider: ModelProvider): TestRuntime & { healers: HealingPlanner[] } {
  const healers: HealingPlanner[] = [];
  const h = openTestRuntime({
    modules: ({ registry }) => [
      {
        name: 'test model',
        plans: (playbooks) =>
          withLlmGoals({
            registry,
            provider: () => provider,
            acceptance: (task) => (task.plan.kind === 'goal' ? (task.plan.acceptance ?? []) : []),
            prices: TEST_PRICES,
          })(
            withPlaybookHealing({ registry, provider: () => provider, prices: () => TEST_PRICES, onPlanner: (_t, p) => healers.push(p) })(
              playbooks,
            ),
          ),
      },
    ],
  });
  return Object.assign(h, { healers });
}

describe('record → replay (real runtime, real SDK against the wire-protocol model server)', () => {
  let server: ModelServer;
  let h: ReturnType<typeof openRecordingRuntime>;
  let workspace: string;

  beforeEach(async () => {
    server = await new ModelServer().start();
    h = openRecordingRuntime(chatProvider(server.url));
    workspace = tempDir('agent-desk-replay-');
    mkdirSync(path.join(workspace, 'reports'));
    writeFileSync(path.join(workspace, 'config.json'), '{"mode":"fast"}');
    writeFileSync(path.join(workspace, 'reports/today.txt'), 'all green');
  });
  afterEach(async () => {
    await h.cleanup();
    await server.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  /** Runs the goal with the model (3 calls), records it over RPC, and returns the playbook. */
  async function recordRun(): Promise<{ yaml: string; playbook: Playbook }> {
    server.script(
      'chat',
      { toolCalls: [{ name: 'fs_read', arguments: { path: 'config.json' } }] },
      { toolCalls: [{ name: 'fs_read', arguments: { path: 'reports/today.txt' } }] },
      { toolCalls: [{ name: 'fs_write', arguments: { path: 'out.txt', content: 'CHECKED' } }] },
      { text: 'Done.' },
    );
    const task = await h.rt.engine.create({
      title: 'check reports',
      plan: { kind: 'goal', goal: GOAL, model: 'test:gpt-test', acceptance: ACCEPTANCE },
      inputs: {},
      workspace,
    });
    expect((await h.rt.engine.run(task.id)).state).toBe('succeeded');
    expect(server.received('chat')).toHaveLength(4);
    const response = (await h.rt.dispatcher.dispatch(
      { id: 1, method: 'tasks.record', params: { taskId: task.id } },
      { scopes: ALL_SCOPES.filter((s) => s === 'operator.read'), clientId: 'test' },
    )) as { result: { yaml: string; playbook: Playbook } };
    return response.result;
  }

  async function replay(yaml: string): Promise<Task> {
    rmSync(path.join(workspace, 'out.txt'), { force: true });
    const task = await h.rt.engine.create({
      title: 'replay',
      plan: { kind: 'playbook', source: yaml, baseDir: workspace },
      inputs: {},
      workspace,
    });
    return h.rt.engine.run(task.id);
  }

  it('records the executed steps with expectations from their results, the checks and the healing model', async () => {
    const { yaml, playbook } = await recordRun();
    expect(parsePlaybook(yaml)).toEqual(playbook);
    expect(playbook).toMatchObject({ goal: GOAL, heal: { model: 'test:gpt-test' }, acceptance: ACCEPTANCE });
    // The arguments as executed (tool defaults filled in).
    expect(playbook.steps.map((s) => [s.tool, s.args])).toEqual([
      ['fs.read', expect.objectContaining({ path: 'config.json' })],
      ['fs.read', expect.objectContaining({ path: 'reports/today.txt' })],
      ['fs.write', expect.objectContaining({ path: 'out.txt', content: 'CHECKED' })],
    ]);
    // Reads pin what they read (by hash); the write pins nothing it cannot know in advance.
    expect(playbook.steps[0]!.expect).toEqual([{ path: '$.sha256', equals: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(playbook.steps[2]!.expect).toEqual([]);
  });

  it('replays against an unchanged workspace with zero model calls', async () => {
    const { yaml } = await recordRun();
    const done = await replay(yaml);
    expect(done.state).toBe('succeeded');
    expect(done.usage.modelCalls).toBe(0);
    expect(server.received('chat')).toHaveLength(4);
    expect(readFileSync(path.join(workspace, 'out.txt'), 'utf8')).toBe('CHECKED');
  });

  it('calls the model only for the step whose expectation fails, then continues the playbook', async () => {
    const { yaml } = await recordRun();
    writeFileSync(path.join(workspace, 'config.json'), '{"mode":"safe"}');
    server.script('chat', { toolCalls: [{ name: 'fs_read', arguments: { path: 'config.json' } }] });
    const done = await replay(yaml);
    expect(done.state).toBe('succeeded');
    expect(done.usage.modelCalls).toBe(1);
    expect(server.received('chat')).toHaveLength(5);
    expect(h.healers.at(-1)!.healed).toEqual([0]);
    const prompt = JSON.stringify(server.received('chat')[4]!.body.messages);
    expect(prompt).toContain('Step 1 of 3');
    expect(prompt).toContain('expectation failed: $.sha256');
    expect(prompt).toContain('safe'); // the current observation
    // engine.steps lists them in the order they ran; here by plan position.
    const byIndex = [...(await h.rt.engine.steps(done.id))].sort((a, b) => a.index - b.index);
    expect(byIndex.map((s) => [s.index, s.tool, s.status])).toEqual([
      [0, 'fs.read', 'failed'],
      [1, 'fs.read', 'completed'],
      [2, 'fs.write', 'completed'],
      [3, 'fs.read', 'completed'], // the replacement for step 1, run before step 2
    ]);
    expect(byIndex[3]).toMatchObject({ planStepId: 'step1', attempt: 1 });
    expect(byIndex[3]!.startedAt <= byIndex[1]!.startedAt).toBe(true);
  });

  it('a healed replay, recorded, is the playbook with the healed step written in: the next replay needs no model', async () => {
    const { yaml } = await recordRun();
    mkdirSync(path.join(workspace, 'reports/archive'));
    renameSync(path.join(workspace, 'reports/today.txt'), path.join(workspace, 'reports/archive/today.txt'));
    server.script('chat', { toolCalls: [{ name: 'fs_read', arguments: { path: 'reports/archive/today.txt' } }] });
    const healedRun = await replay(yaml);
    expect(healedRun.usage.modelCalls).toBe(1);
    const response = (await h.rt.dispatcher.dispatch(
      { id: 3, method: 'tasks.record', params: { taskId: healedRun.id } },
      { scopes: ['operator.read'], clientId: 'test' },
    )) as { result: { yaml: string; playbook: Playbook; healed: number[] } };
    const saved = response.result;
    expect(saved.healed).toEqual([1]);
    expect(saved.playbook.steps.map((s) => [s.id, s.tool, s.args.path])).toEqual([
      ['step1', 'fs.read', 'config.json'],
      ['step2', 'fs.read', 'reports/archive/today.txt'],
      ['step3', 'fs.write', 'out.txt'],
    ]);
    expect(saved.playbook.heal).toMatchObject({ model: 'test:gpt-test' });
    const again = await replay(saved.yaml);
    expect(again.state).toBe('succeeded');
    expect(again.usage.modelCalls).toBe(0);
    expect(server.received('chat')).toHaveLength(5);
  });

  it('heals a step whose file moved (the call fails) with the replacement the model gives', async () => {
    const { yaml } = await recordRun();
    mkdirSync(path.join(workspace, 'reports/archive'));
    renameSync(path.join(workspace, 'reports/today.txt'), path.join(workspace, 'reports/archive/today.txt'));
    server.script('chat', { toolCalls: [{ name: 'fs_read', arguments: { path: 'reports/archive/today.txt' } }] });
    const done = await replay(yaml);
    expect(done.state).toBe('succeeded');
    expect(done.usage.modelCalls).toBe(1);
    expect(h.healers.at(-1)!.healed).toEqual([1]);
    expect((await h.rt.engine.steps(done.id)).find((s) => s.index === 3)).toMatchObject({ planStepId: 'step2', status: 'completed' });
  });

  it('fails with the reason when the healing model gives up', async () => {
    const { yaml } = await recordRun();
    rmSync(path.join(workspace, 'reports/today.txt'));
    server.script('chat', { toolCalls: [{ name: 'give_up', arguments: { reason: 'the report is gone' } }] });
    const done = await replay(yaml);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toContain('step 2 (fs.read) failed on replay');
    expect(done.stateReason).toContain('the report is gone');
  });

  it('stops after heal.maxRounds when the replacements keep failing', async () => {
    const { yaml } = await recordRun();
    rmSync(path.join(workspace, 'reports/today.txt'));
    const guess = { toolCalls: [{ name: 'fs_read', arguments: { path: 'reports/old.txt' } }] };
    server.script('chat', guess, guess);
    const done = await replay(yaml);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toContain('step 2 (fs.read) still fails after 2 healing rounds');
    expect(done.usage.modelCalls).toBe(2);
    expect(existsSync(path.join(workspace, 'out.txt'))).toBe(false); // the later steps never ran
  });

  it('refuses to record a task that did not succeed', async () => {
    server.script('chat', { toolCalls: [{ name: 'give_up', arguments: { reason: 'no' } }] });
    const task = await h.rt.engine.create({ title: 'x', plan: { kind: 'goal', goal: 'x', acceptance: ACCEPTANCE }, inputs: {}, workspace });
    expect((await h.rt.engine.run(task.id)).state).toBe('failed');
    const response = await h.rt.dispatcher.dispatch(
      { id: 2, method: 'tasks.record', params: { taskId: task.id } },
      { scopes: ['operator.read'], clientId: 'test' },
    );
    expect(response).toMatchObject({ error: { code: 'conflict', message: expect.stringContaining('only a succeeded task') } });
  });
});
