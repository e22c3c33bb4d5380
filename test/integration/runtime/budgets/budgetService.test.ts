import { afterEach, describe, expect, it } from 'vitest';
import type { Actor, BudgetHold, Scope, SpendSummary, Task } from '../../../../electron/contract/index.js';
import type { CallContext } from '../../../../electron/runtime/gateway/handlers.js';
import { SpendRepo } from '../../../../electron/runtime/store/spendRepo.js';
import { waitForState, type TestRuntime } from '../../../support/runtime.js';
import { ScriptedPlanner, withScriptedGoals } from '../../../support/scriptedPlanner.js';
import { openStoreTestRuntime, STORE_KINDS, storeMissing } from '../../../support/storeKinds.js';

// Budgets that pause and ask, through the product's assembly on both stores: a goal task whose
// scripted model spends $0.50 a turn stops at its owner's daily limit with a question, an
// approver raises it over RPC, and it finishes; the ledger says exactly what each person spent.

let h: TestRuntime;
afterEach(async () => h?.cleanup());

const ALICE: Actor = { subject: 'alice', name: 'Alice' };
const BOB: Actor = { subject: 'bob', name: 'Bob' };
const approver: CallContext = { scopes: ['operator.read', 'operator.approvals'], clientId: 'ws:approver' };
const as = (scopes: Scope[]): CallContext => ({ scopes, clientId: 'ws:someone' });
const turnCost = { modelCalls: 1, tokensIn: 300, tokensOut: 100, costUsd: 0.5 };

async function call<T>(method: string, params: unknown, ctx: CallContext = approver): Promise<T> {
  const answer = (await h.rt.dispatcher.dispatch({ id: 1, method, params }, ctx)) as {
    result?: T;
    error?: { code: string; message: string };
  };
  if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
  return answer.result as T;
}

/** A model that spends $0.50 (400 tokens) per turn and is done after `turns` calls. */
const spender = (turns: number) =>
  new ScriptedPlanner((turn) => (turn < turns ? { tool: 'echo', args: { value: turn }, usage: turnCost } : 'done'));

function goal(owner: Actor, budget: Record<string, number> = {}): Promise<Task> {
  return h.rt.engine.create({ title: 'spend', plan: { kind: 'goal', goal: 'spend' }, inputs: {}, budget, owner });
}

describe.each(STORE_KINDS)('budgets that pause and ask (%s store)', (kind) => {
  const absent = storeMissing(kind);
  if (absent) return void it.skipIf(absent !== undefined)(`needs ${kind}: ${absent}`, () => undefined);

  it('a task at its owner’s daily budget pauses and asks; raised by an approver, it continues and finishes', async () => {
    h = await openStoreTestRuntime(kind, { plans: withScriptedGoals(spender(6)), config: { budgets: { perPersonDaily: { usd: 2.5 } } } });
    const task = await goal(ALICE);
    const waiting = await h.rt.engine.run(task.id);
    expect(waiting.state).toBe('waiting_user');
    expect(waiting.stateReason).toBe('Alice has spent $2.50 of $2.50 today; raise by $1.00?');
    expect(waiting.stateReasonText).toMatchObject({ code: 'state.budgetAskPerson' });
    const { hold } = await call<{ hold: BudgetHold }>('budgets.hold', { taskId: task.id });
    expect(hold).toMatchObject({ limit: 'person', metric: 'usd', spent: 2.5, cap: 2.5, raiseBy: 1, subject: 'alice' });

    // Restarted before anyone answers: the question is still there, and the task stays put.
    await h.reopen();
    expect((await call<{ hold: BudgetHold }>('budgets.hold', { taskId: task.id })).hold.id).toBe(hold.id);
    const refused = call('budgets.raise', { taskId: task.id }, as(['operator.read', 'operator.write']));
    await expect(refused).rejects.toMatchObject({ code: 'forbidden' });

    const raised = await call<{ hold: BudgetHold }>('budgets.raise', { taskId: task.id });
    expect(raised.hold).toMatchObject({ outcome: 'raised', raised: 1 });
    const done = await waitForState(h.rt, task.id, ['succeeded', 'failed', 'cancelled']);
    expect([done.state, done.stateReason]).toEqual(['succeeded', expect.any(String)]);
    expect(done.usage.costUsd).toBeCloseTo(3, 9);
    const summary = await call<SpendSummary>('spend.summary', {});
    expect(summary.people).toEqual([{ subject: 'alice', name: 'Alice', usd: 3, tokens: 2400, limit: { usd: 3.5 } }]);
    await expect(call('budgets.raise', { taskId: task.id })).rejects.toMatchObject({ code: 'conflict' });
  });

  it('a task’s own cost budget pauses instead of failing; the raise goes to the task', async () => {
    h = await openStoreTestRuntime(kind, { plans: withScriptedGoals(spender(3)) });
    const task = await goal(BOB, { maxCostUsd: 1 });
    const waiting = await h.rt.engine.run(task.id);
    expect(waiting.stateReason).toBe('this task has spent $1.00 of $1.00; raise by $0.50?');
    await call('budgets.raise', { taskId: task.id, by: 2 });
    const done = await waitForState(h.rt, task.id, ['succeeded', 'failed']);
    expect(done.state).toBe('succeeded');
    expect(done.budget.maxCostUsd).toBe(3);
    // The turn that spent the last dollar had its call held back: the scripted model, asked again, charged again.
    expect(await new SpendRepo(h.rt.store.sql).task(task.id)).toEqual({ subject: 'bob', usd: 2, tokens: 1600 });
  });

  it('a declined raise cancels the task', async () => {
    h = await openStoreTestRuntime(kind, { plans: withScriptedGoals(spender(3)) });
    const task = await goal(BOB, { maxCostUsd: 0.5 });
    await h.rt.engine.run(task.id);
    await call('budgets.decline', { taskId: task.id, reason: 'enough' });
    const ended = await h.rt.engine.get(task.id);
    expect([ended.state, ended.stateReason]).toEqual(['cancelled', 'budget not raised by local operator: enough']);
  });

  it('the same call with the same result three times asks instead of failing; let go on, it runs on', async () => {
    const planner = new ScriptedPlanner((turn) => (turn < 4 ? { tool: 'echo', args: { value: 'same' } } : 'done'));
    h = await openStoreTestRuntime(kind, { plans: withScriptedGoals(planner) });
    const task = await goal(ALICE);
    const waiting = await h.rt.engine.run(task.id);
    expect(waiting.stateReason).toBe('echo repeated 3 times with the same arguments and no new result; let it go on?');
    await call('budgets.raise', { taskId: task.id });
    expect((await waitForState(h.rt, task.id, ['succeeded', 'failed', 'cancelled'])).state).toBe('succeeded');
  });

  // Two workers in one process need PostgreSQL (SQLite's writers in one thread would wait on each other); on SQLite the
  // three-worker e2e (test/e2e/cli/budgetWorkers.test.ts) charges concurrently from separate processes.
  it.skipIf(kind === 'sqlite')(
    'two workers charging the last cents of one person at once: both charges count, and both then ask',
    async () => {
      h = await openStoreTestRuntime(kind, { plans: withScriptedGoals(spender(20)), config: { budgets: { perPersonDaily: { usd: 2 } } } });
      const other = h.another(); // a second worker on the same store
      try {
        const [a, b] = [await goal(ALICE), await goal(ALICE)];
        const [ra, rb] = await Promise.all([h.rt.engine.run(a.id), other.engine.run(b.id)]);
        expect([ra.state, ra.stateReason, rb.state, rb.stateReason]).toEqual([
          'waiting_user',
          expect.stringContaining('Alice has spent'),
          'waiting_user',
          expect.stringContaining('Alice has spent'),
        ]);
        const day = (await new SpendRepo(h.rt.store.sql).people(new Date().toISOString().slice(0, 10)))[0]!;
        // Every charge landed (no lost update): the day is the sum of the two tasks, which went at most a turn each past it.
        expect(day.usd).toBeCloseTo(ra.usage.costUsd + rb.usage.costUsd, 9);
        expect(day.usd).toBeGreaterThanOrEqual(2);
        expect(day.usd).toBeLessThanOrEqual(3);
      } finally {
        await other.close();
      }
    },
  );
});
