import { afterEach, describe, expect, it } from 'vitest';
import type { Approval, Caller, MethodName, Role, Task } from '../../../../electron/contract/index.js';
import type { CallContext } from '../../../../electron/runtime/gateway/handlers.js';
import { withScriptedGoals, ScriptedPlanner } from '../../../support/scriptedPlanner.js';
import { openStoreTestRuntime, STORE_KINDS, storeMissing } from '../../../support/storeKinds.js';
import { scopesOfRoles } from '../../../../electron/contract/index.js';
import { testTool } from '../../../support/testTools.js';
import type { TestRuntime } from '../../../support/runtime.js';

const ISSUER = 'https://idp.example';
/** A signed-in person as the gateway's transport sees them (the sign-in e2e covers how they get here). */
const person = (name: string, roles: Role[], groups: string[] = []): Caller => ({
  subject: `${ISSUER}#${name.toLowerCase()}`,
  name,
  roles,
  groups,
  signedIn: true,
});
// Alice may approve other people's payments, but not her own.
const alice = person('Alice', ['operator', 'approver'], ['finance']);
const bob = person('Bob', ['approver'], ['finance']);
const carol = person('Carol', ['approver'], ['finance']);
const dave = person('Dave', ['approver'], ['finance']);
const victor = person('Victor', ['viewer']);
const admin = person('Ada', ['admin']);
const everyone = [alice, bob, carol, dave, victor, admin];

const FOUR_EYES = { policy: { approvals: { payment: { approvers: 2, notOwner: true } } } };

let h: TestRuntime | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

describe.each(STORE_KINDS)('four eyes for payments (%s store)', (kind) => {
  const absent = storeMissing(kind);
  if (absent) return void it.skipIf(absent !== undefined)(`needs ${kind}: ${absent}`, () => undefined);

  let paid = 0;
  async function open(config: Record<string, unknown> = FOUR_EYES): Promise<TestRuntime> {
    paid = 0;
    const pay = testTool({ name: 'shop.pay', risk: 'payment', run: async () => `paid ${++paid}` });
    const planner = new ScriptedPlanner((turn) => (turn < 1 ? { tool: 'shop.pay', args: { key: 'order-A-1' } } : 'done'));
    h = await openStoreTestRuntime(kind, { tools: [pay], plans: withScriptedGoals(planner), config });
    for (const p of everyone) await h.rt.store.people.signedIn(p, new Date().toISOString());
    return h;
  }

  const ctxOf = (caller: Caller): CallContext => ({ scopes: scopesOfRoles(caller.roles), clientId: `person:${caller.name}`, caller });
  async function call<T>(caller: Caller, method: MethodName, params: unknown): Promise<T> {
    const response = await h!.rt.dispatcher.dispatch({ id: 1, method, params }, ctxOf(caller));
    if ('error' in response) throw Object.assign(new Error(response.error.message), response.error);
    return response.result as T;
  }
  const decide = (caller: Caller, approval: Approval, decision: 'approve' | 'deny') =>
    call<Approval>(caller, 'approvals.decide', { approvalId: approval.id, decision });

  /** Alice asks for a purchase; the run stops at the payment's approval. */
  async function alicePurchase(): Promise<{ task: Task; approval: Approval }> {
    const task = await call<Task>(alice, 'tasks.create', { goal: 'buy the order A-1', start: false });
    expect(task.owner).toEqual({ subject: alice.subject, name: 'Alice' });
    await h!.rt.engine.run(task.id, { detachOnApproval: true });
    const [approval] = await h!.rt.approvals.list({ taskId: task.id, status: 'pending' });
    expect(approval).toMatchObject({ rule: { approvers: 2, notOwner: true }, owner: { name: 'Alice' }, rememberable: false });
    return { task, approval: approval! };
  }
  const traceTypes = async (taskId: string) => (await h!.rt.trace.page(taskId, 0, 1000)).events.map((e) => e.type);

  it('Alice cannot approve her own purchase; Bob agrees, Carol agrees, and it runs once', async () => {
    await open();
    const { task, approval } = await alicePurchase();
    await expect(decide(alice, approval, 'approve')).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/Alice started this task/),
    });
    const afterBob = await decide(bob, approval, 'approve');
    expect(afterBob.status).toBe('pending');
    expect(afterBob.votes).toMatchObject([{ by: { name: 'Bob' }, decision: 'approve', counted: true }]);
    await expect(decide(bob, approval, 'approve')).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/Bob has already decided/),
    });
    expect(paid).toBe(0);
    const afterCarol = await decide(carol, approval, 'approve');
    expect(afterCarol).toMatchObject({ status: 'approved', decidedBy: 'Bob, Carol' });
    expect((await h!.rt.engine.run(task.id)).state).toBe('succeeded');
    expect(paid).toBe(1);
    const types = await traceTypes(task.id);
    expect(types.filter((t) => t === 'approval.refused')).toHaveLength(2); // Alice's and Bob's second try, recorded
    expect(types.filter((t) => t === 'approval.voted')).toHaveLength(2);
  });

  it('one denial ends it: Bob denies and nothing is paid', async () => {
    await open();
    const { task, approval } = await alicePurchase();
    expect(await decide(bob, approval, 'deny')).toMatchObject({ status: 'denied', decidedBy: 'Bob' });
    await expect(decide(carol, approval, 'approve')).rejects.toMatchObject({ code: 'conflict' });
    expect((await h!.rt.engine.run(task.id)).state).toBe('failed');
    expect(paid).toBe(0);
  });

  it('a viewer sees the approval and cannot decide; an operator cannot control a task of someone else', async () => {
    await open();
    const { task, approval } = await alicePurchase();
    const seen = await call<{ approvals: Approval[] }>(victor, 'approvals.list', { taskId: task.id });
    expect(seen.approvals.map((a) => a.id)).toEqual([approval.id]);
    await expect(decide(victor, approval, 'approve')).rejects.toMatchObject({ code: 'forbidden' });
    const mallory = person('Mallory', ['operator']);
    await h!.rt.store.people.signedIn(mallory, new Date().toISOString());
    await expect(call(mallory, 'tasks.cancel', { taskId: task.id })).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/belongs to Alice/),
    });
    expect((await h!.rt.engine.get(task.id)).state).toBe('waiting_approval');
    await expect(call(admin, 'tasks.cancel', { taskId: task.id })).resolves.toMatchObject({ id: task.id });
  });

  it('an approver removed while the approval waits no longer counts: two others are still needed', async () => {
    await open();
    const { task, approval } = await alicePurchase();
    await decide(bob, approval, 'approve');
    const removed = await call<{ disabledAt?: string }>(admin, 'people.update', { subject: bob.subject, disabled: true });
    expect(removed.disabledAt).toBeDefined();
    const pending = (await h!.rt.approvals.get(approval.id))!;
    expect(pending.votes).toMatchObject([{ by: { name: 'Bob' }, counted: false }]);
    expect((await decide(carol, approval, 'approve')).status).toBe('pending');
    expect((await decide(dave, approval, 'approve')).status).toBe('approved');
    expect((await h!.rt.engine.run(task.id)).state).toBe('succeeded');
    expect(paid).toBe(1);
  });

  it('a group rule: only members of finance decide; a four-eyes approval cannot be remembered', async () => {
    await open({ policy: { approvals: { payment: { approvers: 2, notOwner: true, groups: ['finance'] } } } });
    const { approval } = await alicePurchase();
    const outsider = person('Oscar', ['approver'], ['sales']);
    await h!.rt.store.people.signedIn(outsider, new Date().toISOString());
    await expect(decide(outsider, approval, 'approve')).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/member of finance/),
    });
    await expect(call(bob, 'approvals.decide', { approvalId: approval.id, decision: 'approve', remember: 'task' })).rejects.toMatchObject({
      code: 'invalid_params',
    });
  });

  it('two approvers agreeing at the same moment both count: approved exactly once', async () => {
    await open();
    const { task, approval } = await alicePurchase();
    const [b, c] = await Promise.allSettled([decide(bob, approval, 'approve'), decide(carol, approval, 'approve')]);
    const outcomes = [b, c].map((r) => (r.status === 'fulfilled' ? r.value.status : (r.reason as { code: string }).code));
    // Either the second counted both (approved), or it found the first's commit already approving it.
    expect(outcomes).toContain('approved');
    const final = (await h!.rt.approvals.get(approval.id))!;
    expect(final.status).toBe('approved');
    expect(final.votes?.filter((v) => v.counted)).toHaveLength(2);
    expect((await h!.rt.engine.run(task.id)).state).toBe('succeeded');
    expect(paid).toBe(1);
  });
});

describe.each(STORE_KINDS)('remembered grants reach no further than their granter (%s store)', (kind) => {
  const absent = storeMissing(kind);
  if (absent) return void it.skipIf(absent !== undefined)(`needs ${kind}: ${absent}`, () => undefined);

  it('Bob’s “always” holds for Alice’s tasks, not for his own under notOwner, and not once Bob is removed', async () => {
    const prune = testTool({ name: 'logs.prune', risk: 'delete', run: async () => 'pruned' });
    const planner = new ScriptedPlanner((turn) => (turn < 1 ? { tool: 'logs.prune', args: { key: 'old' } } : 'done'));
    h = await openStoreTestRuntime(kind, {
      tools: [prune],
      plans: withScriptedGoals(planner),
      config: { policy: { approvals: { delete: { approvers: 1, notOwner: true } } } },
    });
    const bobOperator = { ...bob, roles: ['operator', 'approver'] as Role[] };
    for (const p of [alice, bobOperator, admin]) await h.rt.store.people.signedIn(p, new Date().toISOString());
    const ctxOf = (caller: Caller): CallContext => ({ scopes: scopesOfRoles(caller.roles), clientId: caller.name, caller });
    const call = async <T>(caller: Caller, method: MethodName, params: unknown): Promise<T> => {
      const response = await h!.rt.dispatcher.dispatch({ id: 1, method, params }, ctxOf(caller));
      if ('error' in response) throw Object.assign(new Error(response.error.message), response.error);
      return response.result as T;
    };
    /** Runs a task of `owner` to its first stop: 'asked' when the delete waits for someone. */
    const runFor = async (owner: Caller) => {
      const task = await call<Task>(owner, 'tasks.create', { goal: 'prune the logs', start: false });
      const ran = await h!.rt.engine.run(task.id, { detachOnApproval: true });
      return { task, asked: ran.state === 'waiting_approval' };
    };

    const first = await runFor(alice);
    expect(first.asked).toBe(true);
    const [approval] = await h.rt.approvals.list({ taskId: first.task.id, status: 'pending' });
    await call(bobOperator, 'approvals.decide', { approvalId: approval!.id, decision: 'approve', remember: 'always' });
    expect((await h.rt.engine.run(first.task.id)).state).toBe('succeeded');

    expect((await runFor(alice)).asked, 'Bob’s grant covers Alice’s next task').toBe(false);
    expect((await runFor(bobOperator)).asked, 'but not Bob’s own: he may not approve his own deletes').toBe(true);
    await call(admin, 'people.update', { subject: bob.subject, disabled: true });
    expect((await runFor(alice)).asked, 'removed, Bob’s grant holds no more').toBe(true);
  });
});
