import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../electron/runtime/assembleRuntime.js';
import { openTestRuntime, tempDir, type TestRuntime } from '../../../support/runtime.js';
import { ScriptedPlanner, withScriptedGoals, type ScriptedCall } from '../../../support/scriptedPlanner.js';

let h: TestRuntime;
afterEach(async () => h?.cleanup());

/** Goal tasks follow a script chosen per goal text. */
function runtimeWithScripts(scripts: Record<string, (turn: number) => ScriptedCall | 'done'>): TestRuntime {
  const planner = {
    kind: 'scripted-by-goal',
    next: (state: Parameters<ScriptedPlanner['next']>[0]) => {
      const goal = state.task.plan.kind === 'goal' ? state.task.plan.goal : '';
      return new ScriptedPlanner(scripts[goal]!).next(state);
    },
  };
  return openTestRuntime({ plans: withScriptedGoals(planner) });
}

const goalTask = (rt: Runtime, goal: string, workspace: string) =>
  rt.engine.create({ title: goal, plan: { kind: 'goal', goal }, inputs: {}, workspace });

describe('cross-session memory', () => {
  it('a note saved by one task (after approval) is found by a later task’s search and in the next snapshot; forget removes both', async () => {
    const workspace = tempDir('agent-desk-ws-');
    h = runtimeWithScripts({
      remember: (turn) =>
        turn === 0 ? { tool: 'memory.save', args: { text: 'The staging database lives in eu-west-3', tags: ['infra'] } } : 'done',
      recall: (turn) => (turn === 0 ? { tool: 'memory.search', args: { query: 'staging database' } } : 'done'),
    });
    const { rt } = h;

    const saver = await goalTask(rt, 'remember', workspace);
    expect(await rt.memory.snapshotFor(saver)).toBe(''); // frozen empty at its start
    const waiting = await rt.engine.run(saver.id, { detachOnApproval: true });
    expect(waiting.state).toBe('waiting_approval'); // saving to memory asks by default
    const [approval] = await rt.approvals.list({ status: 'pending' });
    expect(approval?.tool).toBe('memory.save');
    await rt.approvals.decide(approval!.id, { decision: 'approve', remember: 'once' }, 'test');
    expect((await rt.engine.run(saver.id)).state).toBe('succeeded');
    expect(await rt.memory.snapshotFor(saver)).toBe(''); // the running task's snapshot stays frozen

    const reader = await goalTask(rt, 'recall', workspace);
    const snapshot = await rt.memory.snapshotFor(reader);
    expect(snapshot).toContain('The staging database lives in eu-west-3');
    expect(snapshot).toContain(`## Memory (workspace: ${workspace})`);
    expect((await rt.engine.run(reader.id)).state).toBe('succeeded');
    const [search] = await rt.engine.steps(reader.id);
    const found = (search!.output as { notes: { id: string; text: string }[] }).notes;
    expect(found.map((n) => n.text)).toEqual(['The staging database lives in eu-west-3']);

    const call = (method: string, params: unknown) =>
      rt.dispatcher.dispatch({ id: 1, method, params }, { scopes: ['operator.read', 'operator.write'], clientId: 't' });
    const scope = { kind: 'workspace', id: workspace };
    expect(await call('memory.forget', { scope, noteId: found[0]!.id })).toMatchObject({ result: { forgotten: true } });
    expect(await call('memory.search', { scope, query: 'staging' })).toMatchObject({ result: { notes: [] } });
    const after = await goalTask(rt, 'recall', workspace);
    expect(await rt.memory.snapshotFor(after)).toBe('');
  });

  it('notes never cross scopes: another workspace or agent sees nothing, and forget needs the right scope', async () => {
    h = openTestRuntime({});
    const memory = h.rt.memory;
    const note = await memory.add({ kind: 'agent', id: 'researcher' }, 'prefers primary sources');
    expect((await memory.search({ kind: 'agent', id: 'researcher' }, 'sources')).map((n) => n.id)).toEqual([note.id]);
    expect(await memory.search({ kind: 'agent', id: 'writer' }, 'sources')).toEqual([]);
    expect(await memory.search({ kind: 'workspace', id: '/tmp' }, 'sources')).toEqual([]);
    expect(await memory.forget({ kind: 'agent', id: 'writer' }, note.id)).toBe(false);
    expect(await memory.search({ kind: 'agent', id: 'researcher' }, '')).toHaveLength(1);
  });

  it('search text is words, not FTS syntax: quotes and operators cannot break or widen the query', async () => {
    h = openTestRuntime({});
    const memory = h.rt.memory;
    const scope = { kind: 'agent' as const, id: 'a' };
    await memory.add(scope, 'deploys happen on Tuesdays');
    expect(await memory.search(scope, 'deploy" OR "x* NEAR(')).toHaveLength(1);
    expect(await memory.search(scope, '***')).toHaveLength(1); // no words: newest notes
  });

  it('memory RPC refuses a call without a scope', async () => {
    h = openTestRuntime({});
    const res = await h.rt.dispatcher.dispatch(
      { id: 1, method: 'memory.add', params: { text: 'x' } },
      { scopes: ['operator.write'], clientId: 't' },
    );
    expect(res).toMatchObject({ error: { code: 'invalid_params' } });
  });
});
