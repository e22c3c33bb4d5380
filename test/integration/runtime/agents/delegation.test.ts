import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../electron/runtime/assembleRuntime.js';
import { openTestRuntime, type TestRuntime } from '../../../support/runtime.js';
import { ScriptedPlanner, withScriptedGoals, type ScriptedCall } from '../../../support/scriptedPlanner.js';
import { testTool } from '../../../support/testTools.js';

let h: TestRuntime;
afterEach(async () => h?.cleanup());

/** Resolves each caller only once two callers wait: proves the children run side by side. */
function barrier() {
  let waiting: (() => void)[] = [];
  return testTool({
    name: 'test.barrier',
    risk: 'read',
    readOnly: true,
    idempotent: true,
    run: () =>
      new Promise((resolve) => {
        waiting.push(() => resolve({ met: true }));
        if (waiting.length >= 2) for (const release of waiting.splice(0)) release();
      }),
  });
}

/** A child playbook: meet the other child, write a file, and check its content. */
const childPlaybook = (name: string, expected = name) => `
name: child-${name}
steps:
  - id: meet
    tool: test.barrier
    args: {}
  - id: write
    tool: fs.write
    args: { path: out.txt, content: "${name}\\n" }
acceptance:
  - { type: file_contains, path: out.txt, text: "${expected}" }
`;

function runtime(scripts: Record<string, (turn: number) => ScriptedCall | 'done'>): TestRuntime {
  const planner = {
    kind: 'scripted-by-goal',
    next: (state: Parameters<ScriptedPlanner['next']>[0]) => {
      const goal = state.task.plan.kind === 'goal' ? state.task.plan.goal : '';
      return new ScriptedPlanner(scripts[goal]!).next(state);
    },
  };
  return openTestRuntime({ plans: withScriptedGoals(planner), tools: [barrier()] });
}

async function goalAs(rt: Runtime, agent: string, goal: string) {
  const task = await rt.engine.create({ title: goal, plan: { kind: 'goal', goal }, inputs: {} });
  await rt.agents.repo.assign(task.id, agent);
  return task;
}

const delegateOnce =
  (children: unknown[]) =>
  (turn: number): ScriptedCall | 'done' =>
    turn === 0 ? { tool: 'agents.delegate', args: { children, timeoutMs: 60_000 } } : 'done';

describe('sub-agent delegation', () => {
  it('a parent delegates to two sub-agents in parallel, waits, and succeeds when both children’s checks pass', async () => {
    h = runtime({
      lead: delegateOnce([
        { agent: 'writer-a', playbook: childPlaybook('a') },
        { agent: 'writer-b', playbook: childPlaybook('b') },
      ]),
    });
    const agents = h.rt.agents;
    for (const name of ['lead', 'writer-a', 'writer-b']) await agents.create({ name, budget: { maxSteps: 20 } });
    const parent = await goalAs(h.rt, 'lead', 'lead');
    const done = await h.rt.engine.run(parent.id);
    expect(done.state, done.stateReason).toBe('succeeded');

    const children = (await h.rt.store.tasks.list({ limit: 10 })).filter((t) => t.parentId === parent.id);
    expect(children).toHaveLength(2);
    for (const child of children) {
      expect(child.state).toBe('succeeded');
      expect(child.checks.every((c) => c.passed)).toBe(true);
      expect(child.budget.maxSteps).toBe(20); // the sub-agent's own budget
      expect(child.workspace).not.toBe(parent.workspace);
      expect((await h.rt.trace.page(child.id, 0, 100)).events.find((e) => e.type === 'delegation.started')?.data).toMatchObject({
        parentTaskId: parent.id,
      });
    }
    const parentTrace = (await h.rt.trace.page(parent.id, 0, 200)).events;
    expect(
      parentTrace
        .filter((e) => e.type === 'delegation.started')
        .map((e) => e.data.childTaskId)
        .sort(),
    ).toEqual(children.map((c) => c.id).sort());
    expect(parentTrace.find((e) => e.type === 'delegation.finished')).toBeDefined();
  });

  it('the parent fails when a child’s acceptance check fails', async () => {
    h = runtime({
      lead: delegateOnce([
        { agent: 'writer-a', playbook: childPlaybook('a') },
        { agent: 'writer-b', playbook: childPlaybook('b', 'something else') },
      ]),
    });
    const agents = h.rt.agents;
    for (const name of ['lead', 'writer-a', 'writer-b']) await agents.create({ name });
    const done = await h.rt.engine.run((await goalAs(h.rt, 'lead', 'lead')).id);
    expect(done.state).toBe('failed');
    const [step] = await h.rt.engine.steps(done.id);
    expect(step?.error).toMatch(/1 of 2 sub-agent task\(s\) did not succeed: writer-b/);
  });

  it('a goal child carries the checks it was given; a command check from the model is refused', async () => {
    const checks = [{ type: 'file_exists', path: 'notes.md', exists: true }];
    h = runtime({
      lead: delegateOnce([{ agent: 'writer-a', goal: 'take notes', checks }]),
      'take notes': () => 'done',
      risky: delegateOnce([{ agent: 'writer-a', goal: 'take notes', checks: [{ type: 'command_exit', command: ['rm', '-rf', '/'] }] }]),
    });
    const agents = h.rt.agents;
    for (const name of ['lead', 'writer-a']) await agents.create({ name });
    const parent = await goalAs(h.rt, 'lead', 'lead');
    expect((await h.rt.engine.run(parent.id)).state).toBe('succeeded');
    const [child] = (await h.rt.store.tasks.list({ limit: 10 })).filter((t) => t.parentId === parent.id);
    expect(child?.plan).toEqual({ kind: 'goal', goal: 'take notes', acceptance: checks });

    const refused = await h.rt.engine.run((await goalAs(h.rt, 'lead', 'risky')).id);
    expect(refused.state).toBe('failed');
    expect((await h.rt.engine.steps(refused.id))[0]?.error).toMatch(/checks may only be of the types file_exists/);
  });

  it('a delegation cycle is refused with a clear error and no child is started for it', async () => {
    h = runtime({
      lead: delegateOnce([{ agent: 'helper', goal: 'help' }]),
      help: delegateOnce([{ agent: 'lead', goal: 'lead' }]),
    });
    const agents = h.rt.agents;
    for (const name of ['lead', 'helper']) await agents.create({ name });
    const done = await h.rt.engine.run((await goalAs(h.rt, 'lead', 'lead')).id);
    expect(done.state).toBe('failed');
    const helper = (await h.rt.store.tasks.list({ limit: 10 })).find((t) => t.parentId === done.id)!;
    const [helperStep] = await h.rt.engine.steps(helper.id);
    expect(helperStep?.error).toContain('delegation cycle refused: lead → helper → lead');
    expect(await h.rt.store.tasks.list({ limit: 10 })).toHaveLength(2); // parent and helper, no third
  });

  it('agents RPC: create, update, list and delete with validation', async () => {
    h = runtime({});
    const call = (method: string, params: unknown) =>
      h.rt.dispatcher.dispatch({ id: 1, method, params }, { scopes: ['operator.admin'], clientId: 't' });
    expect(await call('agents.create', { name: 'researcher', model: 'openai:gpt-4.1-mini', tools: ['fs.*'] })).toMatchObject({
      result: { name: 'researcher', maxConcurrent: 2 },
    });
    expect(await call('agents.create', { name: 'researcher' })).toMatchObject({ error: { code: 'conflict' } });
    expect(await call('agents.create', { name: 'Bad Name' })).toMatchObject({ error: { code: 'invalid_params' } });
    expect(await call('agents.update', { name: 'researcher', patch: { maxConcurrent: 1 } })).toMatchObject({
      result: { maxConcurrent: 1, tools: ['fs.*'] },
    });
    expect(await call('agents.list', {})).toMatchObject({ result: { agents: [{ name: 'researcher' }] } });
    expect(await call('agents.delete', { name: 'researcher' })).toMatchObject({ result: { deleted: true } });
  });
});
