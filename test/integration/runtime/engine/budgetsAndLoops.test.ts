import { afterEach, describe, expect, it } from 'vitest';
import { ToolError } from '../../../../electron/runtime/tools/types.js';
import { ManualClock, openTestRuntime, waitForState, type TestRuntime } from '../../../support/runtime.js';
import { ScriptedPlanner, withScriptedGoals } from '../../../support/scriptedPlanner.js';
import { testTool } from '../../../support/testTools.js';

let h: TestRuntime;
afterEach(async () => h?.cleanup());

function goalTask(budget: Record<string, number> = {}) {
  return h.rt.engine.create({ title: 'goal', plan: { kind: 'goal', goal: 'count to ten' }, inputs: {}, budget });
}

describe('budgets and loop detection', () => {
  it('the step budget pauses a task with a question naming the limit', async () => {
    const planner = new ScriptedPlanner((turn) => ({ tool: 'echo', args: { value: turn } }));
    h = openTestRuntime({ plans: withScriptedGoals(planner) });
    const done = await h.rt.engine.run((await goalTask({ maxSteps: 3 })).id);
    expect(done.state).toBe('waiting_user');
    expect(done.stateReason).toBe('this task has spent 3 steps of 3 steps; raise by 1 steps?');
    expect(await h.rt.engine.steps(done.id)).toHaveLength(3);
  });

  it('the token budget counts what the planner reports and pauses the task', async () => {
    const usage = { modelCalls: 1, tokensIn: 400, tokensOut: 100, costUsd: 0.001 };
    const planner = new ScriptedPlanner((turn) => ({ tool: 'echo', args: { value: turn }, usage }));
    h = openTestRuntime({ plans: withScriptedGoals(planner) });
    const done = await h.rt.engine.run((await goalTask({ maxTokens: 1200 })).id);
    expect(done.state).toBe('waiting_user');
    expect(done.stateReason).toBe('this task has spent 1,500 tokens of 1,200 tokens; raise by 500 tokens?');
    expect(done.usage).toMatchObject({ modelCalls: 3, tokensIn: 1200, tokensOut: 300 });
  });

  it('the calls of the model turn that exhausts the token or cost budget are not run', async () => {
    const runs: unknown[] = [];
    const effect = testTool({ name: 'notes.add', risk: 'write', run: async (a) => (runs.push(a.value), a.value) });
    const usage = { modelCalls: 1, tokensIn: 400, tokensOut: 100, costUsd: 0.2 };
    const planner = new ScriptedPlanner((turn) => ({ tool: 'notes.add', args: { key: `k${turn}`, value: turn }, usage }));
    h = openTestRuntime({ tools: [effect], plans: withScriptedGoals(planner), config: { policy: { rules: { allow: ['notes.add'] } } } });
    const byTokens = await h.rt.engine.run((await goalTask({ maxTokens: 1200 })).id);
    expect(byTokens.stateReason).toBe('this task has spent 1,500 tokens of 1,200 tokens; raise by 500 tokens?');
    expect(runs).toEqual([0, 1]); // the third turn's call never ran
    const exceeded = (await h.rt.trace.page(byTokens.id, 0, 100)).events.find((e) => e.type === 'budget.exceeded');
    expect(exceeded?.data).toMatchObject({ notRun: 1 });

    runs.length = 0;
    const byCost = await h.rt.engine.run((await goalTask({ maxCostUsd: 0.5 })).id);
    expect(byCost.stateReason).toBe('this task has spent $0.60 of $0.50; raise by $0.20?');
    expect(runs).toEqual([0, 1]);
  });

  it('the cost budget pauses the task', async () => {
    const usage = { modelCalls: 1, tokensIn: 10, tokensOut: 10, costUsd: 0.25 };
    const planner = new ScriptedPlanner((turn) => ({ tool: 'echo', args: { value: turn }, usage }));
    h = openTestRuntime({ plans: withScriptedGoals(planner) });
    const done = await h.rt.engine.run((await goalTask({ maxCostUsd: 0.5 })).id);
    expect(done.state).toBe('waiting_user');
    expect(done.stateReason).toBe('this task has spent $0.50 of $0.50; raise by $0.20?');
  });

  it('the wall-time budget pauses the task, measured on the runtime clock', async () => {
    const clock = new ManualClock();
    const slow = testTool({
      name: 'slow',
      risk: 'read',
      readOnly: true,
      idempotent: true,
      run: async (args) => (clock.advance(40_000), args.value),
    });
    const planner = new ScriptedPlanner((turn) => ({ tool: 'slow', args: { value: turn } }));
    h = openTestRuntime({ clock, tools: [slow], plans: withScriptedGoals(planner) });
    const done = await h.rt.engine.run((await goalTask({ maxWallMs: 100000 })).id);
    expect(done.state).toBe('waiting_user');
    expect(done.stateReason).toBe('this task has spent 120 s of 100 s; raise by 50 s?');
  });

  it('time spent waiting for an approval is not wall time, also when the waiting task is paused', async () => {
    const clock = new ManualClock();
    const del = testTool({ name: 'notes.delete', risk: 'delete', run: async () => 'deleted' });
    const planner = new ScriptedPlanner((turn) => (turn === 0 ? { tool: 'notes.delete', args: { key: 'a' } } : 'done'));
    h = openTestRuntime({ clock, tools: [del], plans: withScriptedGoals(planner) });
    const task = await goalTask({ maxWallMs: 60000 });
    const running = h.rt.engine.run(task.id);
    await waitForState(h.rt, task.id, ['waiting_approval']);
    clock.advance(3_600_000); // an hour until someone looks
    await h.rt.engine.pause(task.id);
    clock.advance(100); // the waiting runner's next look
    const paused = await running;
    expect(paused.state).toBe('paused');
    expect(paused.usage.wallMs).toBeLessThan(1_000);
  });

  it('pausing or cancelling a detached task that waits for approval keeps its wall time', async () => {
    const clock = new ManualClock();
    const del = testTool({ name: 'notes.delete', risk: 'delete', run: async () => 'deleted' });
    const planner = new ScriptedPlanner(() => ({ tool: 'notes.delete', args: { key: 'a' } }));
    h = openTestRuntime({ clock, tools: [del], plans: withScriptedGoals(planner) });
    const first = await goalTask();
    const waiting = await h.rt.engine.run(first.id, { detachOnApproval: true });
    expect(waiting.state).toBe('waiting_approval');
    clock.advance(3_600_000);
    expect((await h.rt.engine.pause(first.id)).usage.wallMs).toBe(waiting.usage.wallMs);
    const second = await goalTask();
    await h.rt.engine.run(second.id, { detachOnApproval: true });
    clock.advance(3_600_000);
    const cancelled = await h.rt.engine.cancel(second.id);
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.usage.wallMs).toBeLessThan(1_000);
  });

  it('the same call with the same result three times in a row pauses the task as a loop, asking to go on', async () => {
    const planner = new ScriptedPlanner(() => ({ tool: 'echo', args: { value: 'same' } }));
    h = openTestRuntime({ plans: withScriptedGoals(planner) });
    const done = await h.rt.engine.run((await goalTask()).id);
    expect(done.state).toBe('waiting_user');
    expect(done.stateReason).toBe('echo repeated 3 times with the same arguments and no new result; let it go on?');
    const events = (await h.rt.trace.page(done.id, 0, 100)).events.map((e) => e.type);
    expect(events).toContain('loop.detected');
  });

  it('a planner that finishes without acceptance checks succeeds only with the reason stated', async () => {
    const planner = new ScriptedPlanner((turn) => (turn < 2 ? { tool: 'echo', args: { value: turn } } : 'done'));
    h = openTestRuntime({ plans: withScriptedGoals(planner, [{ type: 'file_exists', path: 'nothing-here.txt', exists: true }]) });
    const done = await h.rt.engine.run((await goalTask()).id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toContain('acceptance check failed: file_exists nothing-here.txt');
  });
});

describe('routing', () => {
  it('a retryable failure falls back to a lower tier and the route records why', async () => {
    const apiTool = testTool({
      name: 'notes.api',
      tier: 'api',
      capabilities: ['notes.append'],
      idempotent: true,
      run: async () => {
        throw new ToolError('connection refused', true);
      },
    });
    const mcpTool = testTool({
      name: 'mcp__notes__append',
      tier: 'mcp',
      capabilities: ['notes.append'],
      idempotent: true,
      run: async (a) => ({ saved: a.value }),
    });
    h = openTestRuntime({ tools: [apiTool, mcpTool] });
    // By capability: a tool named alone falls back only for the shared capabilities (web.read, file.*).
    const task = await h.rt.engine.create({
      title: 'cap',
      inputs: {},
      plan: {
        kind: 'playbook',
        baseDir: h.home,
        source: 'name: cap\nsteps:\n  - capability: notes.append\n    args: { key: n, value: hi }\n',
      },
    });
    const done = await h.rt.engine.run(task.id);
    expect(done.state).toBe('succeeded');
    const [step] = await h.rt.engine.steps(done.id);
    expect(step).toMatchObject({ tool: 'mcp__notes__append', status: 'completed', output: { saved: 'hi' } });
    expect(step!.route!.attempts).toEqual([{ tool: 'notes.api', tier: 'api', outcome: 'retryable_error', detail: 'connection refused' }]);
    // The route names the tool that ran and why it ran instead of the first choice.
    expect(step!.route).toMatchObject({ tool: 'mcp__notes__append', tier: 'mcp' });
    expect(step!.route!.reason).toMatch(/^fallback: notes\.api failed with a retryable error \(connection refused\); /);
  });

  it('an unavailable top tier is skipped by capability routing, with the reason recorded', async () => {
    const apiTool = testTool({
      name: 'notes.api',
      tier: 'api',
      capabilities: ['notes.append'],
      available: false,
      run: async () => 'never',
    });
    const mcpTool = testTool({
      name: 'mcp__notes__append',
      tier: 'mcp',
      capabilities: ['notes.append'],
      idempotent: true,
      run: async () => 'ok',
    });
    h = openTestRuntime({ tools: [apiTool, mcpTool] });
    const task = await h.rt.engine.create({
      title: 'cap',
      inputs: {},
      plan: {
        kind: 'playbook',
        baseDir: h.home,
        source: 'name: cap\nsteps:\n  - capability: notes.append\n    args: { key: a, value: b }\n',
      },
    });
    const done = await h.rt.engine.run(task.id);
    expect(done.state).toBe('succeeded');
    const [step] = await h.rt.engine.steps(done.id);
    expect(step!.tool).toBe('mcp__notes__append');
    expect(step!.route!.attempts[0]).toMatchObject({ tool: 'notes.api', outcome: 'unavailable', detail: 'switched off by the test' });
  });
});
