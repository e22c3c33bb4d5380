import { afterEach, describe, expect, it } from 'vitest';
import type { Task } from '../../../../electron/contract/index.js';
import type { Runtime } from '../../../../electron/runtime/assembleRuntime.js';
import { MAX_DELEGATION_DEPTH } from '../../../../electron/runtime/agents/index.js';
import { ManualClock, openTestRuntime, type TestRuntime } from '../../../support/runtime.js';
import { ScriptedPlanner, withScriptedGoals, type ScriptedCall } from '../../../support/scriptedPlanner.js';
import { hangingTool } from '../../../support/testTools.js';

let h: TestRuntime;
afterEach(async () => h?.cleanup());

/** Goal tasks follow a script chosen by their goal text. */
function runtime(scripts: Record<string, (turn: number) => ScriptedCall | 'done'>, extra: Parameters<typeof openTestRuntime>[0] = {}) {
  const planner = {
    kind: 'scripted-by-goal',
    next: (state: Parameters<ScriptedPlanner['next']>[0]) => {
      const goal = state.task.plan.kind === 'goal' ? state.task.plan.goal : '';
      return new ScriptedPlanner(scripts[goal]!).next(state);
    },
  };
  return openTestRuntime({ plans: withScriptedGoals(planner), ...extra });
}

const delegateTo =
  (agent: string, child: { goal?: string; playbook?: string }, timeoutMs = 60_000) =>
  (turn: number): ScriptedCall | 'done' =>
    turn === 0 ? { tool: 'agents.delegate', args: { children: [{ agent, ...child }], timeoutMs } } : 'done';

const rootTask = (rt: Runtime, agent: string, goal: string) =>
  rt.engine.create({ title: goal, plan: { kind: 'goal', goal }, inputs: {}, agent });
const childrenOf = async (rt: Runtime, parentId: string) =>
  (await rt.store.tasks.list({ limit: 50 })).filter((t) => t.parentId === parentId);
const events = async (rt: Runtime, taskId: string, type: string) =>
  (await rt.trace.page(taskId, 0, 500)).events.filter((e) => e.type === type);

/** A runtime on a manual clock where `lead` delegates to `worker` a playbook whose one step hangs, with this timeout. */
function hangingDelegation(timeoutMs: number): ManualClock {
  const clock = new ManualClock();
  const playbook = 'name: hangs\nsteps:\n  - { id: wait, tool: test.hang, args: {} }\n';
  h = runtime({ lead: delegateTo('worker', { playbook }, timeoutMs) }, { clock, tools: [hangingTool('test.hang')] });
  return clock;
}

async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('delegation limits', () => {
  it(`a chain deeper than ${MAX_DELEGATION_DEPTH} is refused with a clear error that reaches the root; the trace links every parent and child both ways`, async () => {
    h = runtime({
      a: delegateTo('b', { goal: 'b' }),
      b: delegateTo('c', { goal: 'c' }),
      c: delegateTo('d', { goal: 'd' }),
      d: () => 'done',
    });
    for (const name of ['a', 'b', 'c', 'd']) await h.rt.agents.create({ name });
    const root = await h.rt.engine.run((await rootTask(h.rt, 'a', 'a')).id);

    expect(root.state).toBe('failed');
    const [b] = await childrenOf(h.rt, root.id);
    const [c] = await childrenOf(h.rt, b!.id);
    expect(await childrenOf(h.rt, c!.id)).toEqual([]); // no task was started for d
    expect(await h.rt.store.tasks.list({ limit: 50 })).toHaveLength(3);
    const refusal = `delegation depth limit (${MAX_DELEGATION_DEPTH}) reached: a → b → c cannot delegate further`;
    expect((await h.rt.engine.steps(c!.id))[0]?.error).toContain(refusal);
    for (const task of [c!, b!, root]) expect((await h.rt.engine.get(task.id)).stateReason).toContain(refusal);

    for (const [parent, child] of [
      [root, b!],
      [b!, c!],
    ] as [Task, Task][]) {
      expect(child.parentId).toBe(parent.id);
      // One event type on both sides: the parent's names the child, the child's names the parent.
      const parentSide = (await events(h.rt, parent.id, 'delegation.started')).filter((e) => e.data.childTaskId !== undefined);
      expect(parentSide.map((e) => e.data.childTaskId)).toEqual([child.id]);
      const childSide = (await events(h.rt, child.id, 'delegation.started')).filter((e) => e.data.parentTaskId !== undefined);
      expect(childSide.map((e) => e.data.parentTaskId)).toEqual([parent.id]);
      const finished = (await events(h.rt, parent.id, 'delegation.finished'))[0]?.data.children as { taskId: string; reason?: string }[];
      expect(finished.map((f) => f.taskId)).toEqual([child.id]);
      expect(finished[0]?.reason).toContain(refusal);
    }
  });

  it('a child hanging past the delegate timeout is stopped on the runtime clock; the parent fails with the child’s reason', async () => {
    const clock = hangingDelegation(5_000);
    for (const name of ['lead', 'worker']) await h.rt.agents.create({ name });
    const parent = await rootTask(h.rt, 'lead', 'lead');
    const running = h.rt.engine.run(parent.id);

    const child = await until(async () => (await childrenOf(h.rt, parent.id)).find((t) => t.state === 'running'));
    clock.advance(4_999);
    expect((await h.rt.engine.get(child.id)).state).toBe('running');
    clock.advance(1);
    const done = await running;

    expect(await h.rt.engine.get(child.id)).toMatchObject({ state: 'cancelled', stateReason: 'sub-agent timed out after 5000 ms' });
    expect(done.state).toBe('failed');
    expect(done.stateReason).toContain(`worker (${child.id}) cancelled: sub-agent timed out after 5000 ms`);
  });

  it('a child whose wall-time budget runs out first is stopped at its budget, not the longer timeout', async () => {
    const clock = hangingDelegation(600_000);
    await h.rt.agents.create({ name: 'lead' });
    await h.rt.agents.create({ name: 'worker', budget: { maxWallMs: 30_000 } });
    const parent = await rootTask(h.rt, 'lead', 'lead');
    const running = h.rt.engine.run(parent.id);

    const child = await until(async () => (await childrenOf(h.rt, parent.id)).find((t) => t.state === 'running'));
    clock.advance(30_000);
    const done = await running;
    const reason = 'sub-agent exceeded its wall-time budget of 30000 ms';
    expect(await h.rt.engine.get(child.id)).toMatchObject({ state: 'cancelled', stateReason: reason });
    expect(done.stateReason).toContain(`worker (${child.id}) cancelled: ${reason}`);
  });
});
