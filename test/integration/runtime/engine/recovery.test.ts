import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Step } from '../../../../electron/contract/index.js';
import { fixturePlaybook } from '../../../support/cliSandbox.js';
import { createPlaybookTask, type TestRuntime } from '../../../support/runtime.js';
import { openStoreTestRuntime, STORE_KINDS, storeMissing, type StoreKind } from '../../../support/storeKinds.js';
import { ScriptedPlanner, withScriptedGoals } from '../../../support/scriptedPlanner.js';
import { testTool } from '../../../support/testTools.js';

let h: TestRuntime;
afterEach(async () => h?.cleanup());

/** Leaves the database exactly as a process killed during step `index` would: a `started` row. */
async function crashDuring(
  taskId: string,
  index: number,
  tool: string,
  flags: { readOnly: boolean; idempotent: boolean },
  args: unknown,
): Promise<Step> {
  const step: Step = {
    id: `stp_crash_${index}`,
    taskId,
    index,
    attempt: 1,
    tool,
    args,
    status: 'started',
    idempotencyKey: `${taskId}:${index}`,
    ...flags,
    tokens: 0,
    costUsd: 0,
    startedAt: new Date().toISOString(),
    policy: { effect: 'allow', risks: ['write'], source: 'default', reason: 'test', rememberable: true },
  };
  await h.rt.store.steps.save(step);
  await h.rt.store.tasks.setState(taskId, { state: 'running', reason: 'crashed', at: new Date().toISOString() });
  return step;
}

async function sendingRuntime(kind: StoreKind, effects: string[]) {
  const send = testTool({
    name: 'chat.send',
    risk: 'send',
    run: async (a, ctx) => (effects.push(`${ctx.idempotencyKey}:${String(a.value)}`), 'sent'),
  });
  const planner = new ScriptedPlanner((turn) => (turn < 2 ? { tool: 'chat.send', args: { key: 'team', value: `m${turn}` } } : 'done'));
  h = await openStoreTestRuntime(kind, {
    tools: [send],
    plans: withScriptedGoals(planner),
    config: { policy: { rules: { allow: ['chat.send'] } } },
  });
  return h.rt.engine.create({ title: 's', plan: { kind: 'goal', goal: 'send two' }, inputs: {} });
}

describe.each(STORE_KINDS)('recovery after a crash (%s store)', (kind) => {
  const absent = storeMissing(kind);
  if (absent) return void it.skipIf(absent !== undefined)(`needs ${kind}: ${absent}`, () => undefined);
  it('a started idempotent step is re-run in place with the same idempotency key', async () => {
    h = await openStoreTestRuntime(kind);
    const task = await createPlaybookTask(h.rt, readFileSync(fixturePlaybook('two-writes.yaml'), 'utf8'));
    await crashDuring(task.id, 0, 'fs.write', { readOnly: false, idempotent: true }, { path: 'a.txt', content: 'A' });
    const done = await h.rt.engine.run(task.id);
    expect(done.state).toBe('succeeded');
    const steps = h.rt.engine.steps(task.id);
    expect((await steps).map((s) => [s.index, s.attempt, s.status, s.id])).toEqual([
      [0, 1, 'completed', 'stp_crash_0'],
      [1, 1, 'completed', (await steps)[1]!.id],
    ]);
    expect(readFileSync(path.join(done.workspace, 'a.txt'), 'utf8')).toBe('A');
    const rerun = (await h.rt.trace.page(task.id, 0, 100)).events.find((e) => e.type === 'step.started' && e.data.rerun === true);
    expect(rerun?.data.reason).toContain('safe to re-run');
  });

  it('a started non-idempotent step becomes uncertain and the task waits for the user', async () => {
    const effects: string[] = [];
    const task = await sendingRuntime(kind, effects);
    await crashDuring(task.id, 0, 'chat.send', { readOnly: false, idempotent: false }, { key: 'team', value: 'm0' });
    const waiting = await h.rt.engine.run(task.id);
    expect(waiting.state).toBe('waiting_user');
    expect(waiting.stateReason).toBe('step 1 (chat.send) was interrupted and may or may not have taken effect: choose rerun, skip or fail');
    expect((await h.rt.engine.steps(task.id))[0]!.status).toBe('uncertain');
    expect(effects).toEqual([]);
    // Running again without a choice changes nothing: nothing is silently repeated.
    expect((await h.rt.engine.run(task.id)).state).toBe('waiting_user');
    expect(effects).toEqual([]);
  });

  it('skip marks the uncertain step skipped and continues without repeating it', async () => {
    const effects: string[] = [];
    const task = await sendingRuntime(kind, effects);
    await crashDuring(task.id, 0, 'chat.send', { readOnly: false, idempotent: false }, { key: 'team', value: 'm0' });
    await h.rt.engine.run(task.id);
    const done = await h.rt.engine.run(task.id, { resolution: 'skip' });
    expect(done.state).toBe('succeeded');
    expect(effects).toEqual([`${task.id}:1:m1`]);
    expect((await h.rt.engine.steps(task.id)).map((s) => s.status)).toEqual(['skipped', 'completed']);
  });

  it('rerun executes the uncertain step again with its original idempotency key', async () => {
    const effects: string[] = [];
    const task = await sendingRuntime(kind, effects);
    await crashDuring(task.id, 0, 'chat.send', { readOnly: false, idempotent: false }, { key: 'team', value: 'm0' });
    await h.rt.engine.run(task.id);
    const done = await h.rt.engine.run(task.id, { resolution: 'rerun' });
    expect(done.state).toBe('succeeded');
    expect(effects).toEqual([`${task.id}:0:m0`, `${task.id}:1:m1`]);
  });

  it('fail ends the task with the choice recorded', async () => {
    const task = await sendingRuntime(kind, []);
    await crashDuring(task.id, 0, 'chat.send', { readOnly: false, idempotent: false }, { key: 'team', value: 'm0' });
    await h.rt.engine.run(task.id);
    const done = await h.rt.engine.run(task.id, { resolution: 'fail' });
    expect(done.state).toBe('failed');
    expect(done.stateReason).toBe('step 1 (chat.send) failed by the user after an interruption');
  });

  it('a task whose runner died is resumed by recover() at start-up', async () => {
    h = await openStoreTestRuntime(kind);
    const task = await createPlaybookTask(
      h.rt,
      'name: r\nsteps:\n  - { tool: echo, args: { value: 1 } }\n  - { tool: echo, args: { value: 2 } }\n',
    );
    await crashDuring(task.id, 0, 'echo', { readOnly: true, idempotent: true }, { value: 1 });
    const rt = await h.reopen();
    expect(await rt.engine.recover()).toEqual([task.id]);
    await rt.engine.idle();
    expect((await rt.engine.get(task.id)).state).toBe('succeeded');
  });
});
