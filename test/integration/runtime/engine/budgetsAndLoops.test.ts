import { afterEach, describe, expect, it } from 'vitest';
import { ToolError } from '../../../../electron/runtime/tools/types.js';
import { ManualClock, openTestRuntime, type TestRuntime } from '../../../support/runtime.js';
import { ScriptedPlanner, withScriptedGoals } from '../../../support/scriptedPlanner.js';
import { testTool } from '../../../support/testTools.js';

let h: TestRuntime;
afterEach(async () => h?.cleanup());

function goalTask(budget: Record<string, number> = {}) {
  return h.rt.engine.create({ title: 'goal', plan: { kind: 'goal', goal: 'count to ten' }, inputs: {}, budget });
}

describe('budgets and loop detection', () => {
  it('the step budget stops a task with a clear reason', async () => {
    const planner = new ScriptedPlanner((turn) => ({ tool: 'echo', args: { value: turn } }));
    h = openTestRuntime({ plans: withScriptedGoals(planner) });
    const done = await h.rt.engine.run(goalTask({ maxSteps: 3 }).id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toBe('step budget exhausted: 3/3 steps');
    expect(h.rt.engine.steps(done.id)).toHaveLength(3);
  });

  it('the token budget counts what the planner reports and stops the task', async () => {
    const usage = { modelCalls: 1, tokensIn: 400, tokensOut: 100, costUsd: 0.001 };
    const planner = new ScriptedPlanner((turn) => ({ tool: 'echo', args: { value: turn }, usage }));
    h = openTestRuntime({ plans: withScriptedGoals(planner) });
    const done = await h.rt.engine.run(goalTask({ maxTokens: 1200 }).id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toBe('token budget exhausted: 1500/1200 tokens');
    expect(done.usage).toMatchObject({ modelCalls: 3, tokensIn: 1200, tokensOut: 300 });
  });

  it('the cost budget stops the task', async () => {
    const usage = { modelCalls: 1, tokensIn: 10, tokensOut: 10, costUsd: 0.25 };
    const planner = new ScriptedPlanner((turn) => ({ tool: 'echo', args: { value: turn }, usage }));
    h = openTestRuntime({ plans: withScriptedGoals(planner) });
    const done = await h.rt.engine.run(goalTask({ maxCostUsd: 0.5 }).id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toBe('cost budget exhausted: $0.5000/$0.5');
  });

  it('the wall-time budget stops the task, measured on the runtime clock', async () => {
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
    const done = await h.rt.engine.run(goalTask({ maxWallMs: 100_000 }).id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toBe('wall-time budget exhausted: 120000/100000 ms');
  });

  it('the same call with the same result three times in a row is stopped as a loop', async () => {
    const planner = new ScriptedPlanner(() => ({ tool: 'echo', args: { value: 'same' } }));
    h = openTestRuntime({ plans: withScriptedGoals(planner) });
    const done = await h.rt.engine.run(goalTask().id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toBe('loop detected: echo repeated 3 times with the same arguments and result');
    const events = h.rt.trace.page(done.id, 0, 100).events.map((e) => e.type);
    expect(events).toContain('loop.detected');
  });

  it('a planner that finishes without acceptance checks succeeds only with the reason stated', async () => {
    const planner = new ScriptedPlanner((turn) => (turn < 2 ? { tool: 'echo', args: { value: turn } } : 'done'));
    h = openTestRuntime({ plans: withScriptedGoals(planner, [{ type: 'file_exists', path: 'nothing-here.txt', exists: true }]) });
    const done = await h.rt.engine.run(goalTask().id);
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
    const planner = new ScriptedPlanner((turn) => (turn === 0 ? { tool: 'notes.api', args: { key: 'n', value: 'hi' } } : 'done'));
    h = openTestRuntime({ tools: [apiTool, mcpTool], plans: withScriptedGoals(planner) });
    const done = await h.rt.engine.run(goalTask().id);
    expect(done.state).toBe('succeeded');
    const [step] = h.rt.engine.steps(done.id);
    expect(step).toMatchObject({ tool: 'mcp__notes__append', status: 'completed', output: { saved: 'hi' } });
    expect(step!.route!.attempts).toEqual([{ tool: 'notes.api', tier: 'api', outcome: 'retryable_error', detail: 'connection refused' }]);
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
    const task = h.rt.engine.create({
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
    const [step] = h.rt.engine.steps(done.id);
    expect(step!.tool).toBe('mcp__notes__append');
    expect(step!.route!.attempts[0]).toMatchObject({ tool: 'notes.api', outcome: 'unavailable', detail: 'switched off by the test' });
  });
});
