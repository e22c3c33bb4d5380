import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPlaybookTask, waitForState, type TestRuntime } from '../../../support/runtime.js';
import { openStoreTestRuntime, STORE_KINDS, storeMissing } from '../../../support/storeKinds.js';
import { ScriptedPlanner, withScriptedGoals } from '../../../support/scriptedPlanner.js';
import { hangingTool, testTool } from '../../../support/testTools.js';

let h: TestRuntime;
afterEach(async () => h?.cleanup());

const DELETE_PLAYBOOK = `
name: delete-one
steps:
  - id: make
    tool: fs.write
    args: { path: old.log, content: "old\\n" }
  - id: remove
    tool: fs.delete
    args: { path: old.log }
acceptance:
  - { type: file_exists, path: old.log, exists: false }
`;

describe.each(STORE_KINDS)('approvals (%s store)', (kind) => {
  const absent = storeMissing(kind);
  if (absent) return void it.skipIf(absent !== undefined)(`needs ${kind}: ${absent}`, () => undefined);
  it('a delete waits for approval, and continues once approved', async () => {
    h = await openStoreTestRuntime(kind);
    const task = await createPlaybookTask(h.rt, DELETE_PLAYBOOK);
    await h.rt.engine.start(task.id);
    const waiting = await waitForState(h.rt, task.id, ['waiting_approval']);
    expect(waiting.stateReason).toBe('approval needed: Delete old.log (4 bytes)');
    // The same sentence as a code, stored with the task, for the UI's catalogs.
    expect(waiting.stateReasonText).toEqual({
      code: 'state.approvalNeeded',
      params: { summary: { code: 'preview.deleteFile', params: { path: 'old.log', size: { code: 'size.bytes', params: { n: 4 } } } } },
    });
    const [approval] = await h.rt.approvals.list({ status: 'pending' });
    expect(approval).toMatchObject({ tool: 'fs.delete', risks: ['delete'], preview: { summary: 'Delete old.log (4 bytes)' } });
    await h.rt.approvals.decide(approval!.id, { decision: 'approve', remember: 'once' }, 'test');
    const done = await waitForState(h.rt, task.id, ['succeeded', 'failed']);
    expect(done.state).toBe('succeeded');
    expect(existsSync(path.join(done.workspace, 'old.log'))).toBe(false);
  });

  it('a task waiting for approval survives a restart and continues after approve', async () => {
    h = await openStoreTestRuntime(kind);
    const task = await createPlaybookTask(h.rt, DELETE_PLAYBOOK);
    await h.rt.engine.run(task.id, { detachOnApproval: true });
    expect((await h.rt.engine.get(task.id)).state).toBe('waiting_approval');
    const rt = await h.reopen();
    expect(await rt.engine.recover()).toEqual([task.id]);
    await new Promise((r) => setTimeout(r, 50));
    expect((await rt.engine.get(task.id)).state).toBe('waiting_approval');
    const [approval] = await rt.approvals.list({ status: 'pending' });
    await rt.approvals.decide(approval!.id, { decision: 'approve', remember: 'once' }, 'test');
    expect((await waitForState(rt, task.id, ['succeeded', 'failed'])).state).toBe('succeeded');
    const deletes = (await rt.engine.steps(task.id)).filter((s) => s.tool === 'fs.delete');
    expect(deletes.map((s) => s.status)).toEqual(['completed']);
  });

  it('deny fails the step with the reason recorded', async () => {
    h = await openStoreTestRuntime(kind);
    const task = await createPlaybookTask(h.rt, DELETE_PLAYBOOK);
    await h.rt.engine.run(task.id, { detachOnApproval: true });
    const [approval] = await h.rt.approvals.list({ status: 'pending' });
    await h.rt.approvals.decide(approval!.id, { decision: 'deny', remember: 'once', reason: 'keep it for the audit' }, 'cli:alice');
    const done = await h.rt.engine.run(task.id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toBe('step 2 (fs.delete) denied by cli:alice: keep it for the audit');
    expect(done.stateReasonText).toEqual({
      code: 'state.stepDeniedBy',
      params: { step: 2, tool: 'fs.delete', who: 'cli:alice' },
      detail: 'keep it for the audit',
    });
    const step = (await h.rt.engine.steps(task.id)).find((s) => s.tool === 'fs.delete');
    expect(step).toMatchObject({ status: 'denied', error: 'denied by cli:alice: keep it for the audit' });
    expect(existsSync(path.join(done.workspace, 'old.log'))).toBe(true);
    const resolved = (await h.rt.trace.page(task.id, 0, 100)).events.find((e) => e.type === 'approval.resolved');
    expect(resolved?.data).toMatchObject({ status: 'denied', by: 'cli:alice', reason: 'keep it for the audit' });
  });

  it('remember=task skips asking again within the task, but another task still asks', async () => {
    const planner = new ScriptedPlanner((turn) => (turn < 2 ? { tool: 'notes.delete', args: { key: 'same' } } : 'done'));
    const del = testTool({ name: 'notes.delete', risk: 'delete', idempotent: true, run: async (_a, ctx) => ctx.idempotencyKey });
    h = await openStoreTestRuntime(kind, { tools: [del], plans: withScriptedGoals(planner), loopThreshold: 10 });
    const goal = () => h.rt.engine.create({ title: 'g', plan: { kind: 'goal', goal: 'x' }, inputs: {} });
    const first = await goal();
    await h.rt.engine.start(first.id);
    await waitForState(h.rt, first.id, ['waiting_approval']);
    await h.rt.approvals.decide(
      (await h.rt.approvals.list({ status: 'pending' }))[0]!.id,
      { decision: 'approve', remember: 'task' },
      'test',
    );
    expect((await waitForState(h.rt, first.id, ['succeeded', 'failed'])).state).toBe('succeeded');
    expect(await h.rt.approvals.list({ taskId: first.id })).toHaveLength(1);
    expect((await h.rt.engine.steps(first.id))[1]!.policy).toMatchObject({ effect: 'allow', source: 'remembered' });

    const second = await goal();
    await h.rt.engine.start(second.id);
    expect((await waitForState(h.rt, second.id, ['waiting_approval'])).state).toBe('waiting_approval');
    await h.rt.engine.cancel(second.id);
    expect((await waitForState(h.rt, second.id, ['cancelled'])).state).toBe('cancelled');
    expect((await h.rt.approvals.list({ taskId: second.id }))[0]!.status).toBe('cancelled');
    // The step that waited never ran: it ends with the task, not as a step still waiting.
    const waited = (await h.rt.engine.steps(second.id)).at(-1)!;
    expect(waited).toMatchObject({ status: 'skipped', errorText: { code: 'step.cancelledWhileWaiting' } });
    expect(waited.endedAt).toBeDefined();
  });

  it('a payment is asked every time and cannot be remembered', async () => {
    const pay = testTool({ name: 'shop.pay', risk: 'payment', run: async () => 'paid' });
    const planner = new ScriptedPlanner((turn) => (turn < 1 ? { tool: 'shop.pay', args: { key: 'order-1' } } : 'done'));
    h = await openStoreTestRuntime(kind, {
      tools: [pay],
      plans: withScriptedGoals(planner),
      config: { policy: { rules: { allow: ['shop.pay'] } } },
    });
    const task = await h.rt.engine.create({ title: 'p', plan: { kind: 'goal', goal: 'pay' }, inputs: {} });
    await h.rt.engine.run(task.id, { detachOnApproval: true });
    const [approval] = await h.rt.approvals.list({ status: 'pending' });
    expect(approval!.rememberable).toBe(false);
    await expect(h.rt.approvals.decide(approval!.id, { decision: 'approve', remember: 'always' }, 't')).rejects.toThrow(
      /not allowed for payments/,
    );
    await expect(h.rt.approvals.decide(approval!.id, { decision: 'approve', remember: 'task' }, 't')).rejects.toThrow(
      /not allowed for payments/,
    );
    await h.rt.approvals.decide(approval!.id, { decision: 'approve', remember: 'once' }, 't');
    expect((await h.rt.engine.run(task.id)).state).toBe('succeeded');
  });
});

describe.each(STORE_KINDS)('pause, resume and cancel (%s store)', (kind) => {
  const absent = storeMissing(kind);
  if (absent) return void it.skipIf(absent !== undefined)(`needs ${kind}: ${absent}`, () => undefined);
  it('pause stops after the current step and resume finishes the task', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const wait = testTool({ name: 'wait', risk: 'read', readOnly: true, idempotent: true, run: async (a) => (await gate, a.value) });
    const planner = new ScriptedPlanner((turn) => (turn < 3 ? { tool: turn === 0 ? 'wait' : 'echo', args: { value: turn } } : 'done'));
    h = await openStoreTestRuntime(kind, { tools: [wait], plans: withScriptedGoals(planner) });
    const task = await h.rt.engine.create({ title: 'p', plan: { kind: 'goal', goal: 'x' }, inputs: {} });
    const running = h.rt.engine.run(task.id);
    await waitForState(h.rt, task.id, ['running']);
    await h.rt.engine.pause(task.id);
    release();
    const paused = await running;
    expect(paused.state).toBe('paused');
    expect((await h.rt.engine.steps(task.id)).map((s) => s.status)).toEqual(['completed']);
    await h.rt.engine.resume(task.id);
    const done = await waitForState(h.rt, task.id, ['succeeded', 'failed']);
    expect(done.state).toBe('succeeded');
    expect(await h.rt.engine.steps(task.id)).toHaveLength(3);
  });

  it('cancel aborts an in-flight call and the task ends cancelled with the reason', async () => {
    const hang = hangingTool('hang');
    const planner = new ScriptedPlanner(() => ({ tool: 'hang', args: {} }));
    h = await openStoreTestRuntime(kind, { tools: [hang], plans: withScriptedGoals(planner) });
    const task = await h.rt.engine.create({ title: 'c', plan: { kind: 'goal', goal: 'x' }, inputs: {} });
    const running = h.rt.engine.run(task.id);
    await waitForState(h.rt, task.id, ['running']);
    await new Promise((r) => setTimeout(r, 30));
    await h.rt.engine.cancel(task.id, 'changed my mind');
    const done = await running;
    expect(done.state).toBe('cancelled');
    expect(done.stateReason).toBe('changed my mind');
    // A client's own words have no code: shown as given.
    expect(done.stateReasonText).toEqual({ code: 'text.verbatim', params: {}, detail: 'changed my mind' });
  });

  it('a paused task that nobody runs is cancelled at once', async () => {
    h = await openStoreTestRuntime(kind);
    const task = await createPlaybookTask(h.rt, DELETE_PLAYBOOK);
    expect((await h.rt.engine.pause(task.id)).state).toBe('paused');
    expect((await h.rt.engine.cancel(task.id)).state).toBe('cancelled');
    await expect(h.rt.engine.resume(task.id)).rejects.toThrow(/already cancelled/);
  });
});
