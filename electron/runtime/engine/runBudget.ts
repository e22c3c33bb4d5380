import { ulid } from 'ulid';
import type { BudgetHold, Task, Usage } from '../../contract/index.js';
import { BudgetHoldRepo } from '../store/budgetHoldRepo.js';
import { SpendRepo } from '../store/spendRepo.js';
import type { Repos } from '../store/store.js';
import { SPEND_METRICS, taskBudgetStop, type BudgetStop } from './budgetStop.js';
import type { EngineDeps } from './engineDeps.js';
import { spendOwnerOf } from './spendGuard.js';

/**
 * The usage row and the owner's ledger charge, in one transaction: the charge is the task's new
 * total less what it was charged before, so no retry or takeover counts twice.
 */
export async function writeUsage(tx: Repos, task: Task, usage: Usage, at: string): Promise<void> {
  await tx.tasks.setUsage(task.id, usage, at);
  await chargeSpend(tx, task, usage, at);
}

/** The owner's ledger charge for the task's usage so far (a state change writes the usage in its own row write). */
export async function chargeSpend(tx: Repos, task: Task, usage: Usage, at: string): Promise<void> {
  const tokens = usage.tokensIn + usage.tokensOut;
  if (usage.costUsd > 0 || tokens > 0) await new SpendRepo(tx.sql).charge(task.id, spendOwnerOf(task), { usd: usage.costUsd, tokens }, at);
}

/**
 * Before a model call: the task's own budget, then (a task that calls models, with limits in
 * config) its owner's day and the team's month, read in the commit that charges this run's spend.
 */
export async function limitReached(
  deps: Pick<EngineDeps, 'spend'>,
  task: Task,
  usage: Usage,
  at: string,
  write: (fn: (tx: Repos) => Promise<void>) => Promise<void>,
): Promise<BudgetStop | undefined> {
  const own = taskBudgetStop(task.budget, usage, SPEND_METRICS);
  if (own) return own;
  const guard = deps.spend;
  if (!guard?.active || (task.plan.kind !== 'goal' && usage.modelCalls === 0)) return undefined;
  let stop: BudgetStop | undefined;
  await write(async (tx) => {
    await writeUsage(tx, task, usage, at);
    stop = await guard.check(new SpendRepo(tx.sql), spendOwnerOf(task), at);
  });
  return stop;
}

/** The hold a stop at a limit records (the question survives restarts), its trace event and its write. */
export function budgetHold(taskId: string, stop: BudgetStop, at: string, data: Record<string, unknown>) {
  const hold: BudgetHold = { id: `bh_${ulid()}`, taskId, askedAt: at, ...stop.hold };
  const { limit, metric, spent, cap, raiseBy } = hold;
  return {
    event: limit === 'loop' ? ('loop.detected' as const) : ('budget.exceeded' as const),
    data: { reason: stop.why.reason, holdId: hold.id, limit, metric, spent, cap, raiseBy, ...data },
    persist: (tx: Repos) => new BudgetHoldRepo(tx.sql).open(hold),
  };
}
