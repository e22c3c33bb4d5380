import type { Actor, BudgetHold, SpendSummary, Task } from '../../contract/index.js';
import { isoAt } from '../clock.js';
import type { RuntimeCore } from '../core/runtimeCore.js';
import { BUDGET_FIELD } from '../engine/budgetStop.js';
import type { SpendGuard } from '../engine/spendGuard.js';
import { isTerminal } from '../engine/stateMachine.js';
import { AgentDeskError } from '../errors.js';
import { BudgetHoldRepo } from '../store/budgetHoldRepo.js';
import type { Repos } from '../store/store.js';
import { periodsOf, SpendRepo } from '../store/spendRepo.js';

/** What the budget service uses of the core. */
export type BudgetCore = Pick<RuntimeCore, 'store' | 'engine' | 'trace' | 'clock'>;

/** How long a raise waits for the run that asked to let go of the task before resuming it. */
const RELEASE_WAIT_MS = 10_000;

/**
 * Answers the budget questions tasks wait on (docs/architecture.md, "Budgets"): a raise goes to
 * the limit that stopped the task — its own budget, its owner's day, the team's month — in the
 * transaction that decides the hold, so two approvers raising at once raise once.
 */
export class BudgetService {
  constructor(
    private readonly core: BudgetCore,
    private readonly guard: SpendGuard,
  ) {}

  async hold(taskId: string): Promise<BudgetHold | undefined> {
    await this.core.engine.get(taskId);
    return new BudgetHoldRepo(this.core.store.sql).current(taskId);
  }

  /** Raises the limit the task stopped at (by `by`, else the suggested raise) and resumes it. */
  async raise(taskId: string, by: number | undefined, who: Actor): Promise<BudgetHold> {
    const at = isoAt(this.core.clock.now());
    const hold = await this.core.store.transaction(async (tx) => {
      const open = await this.openHold(tx, taskId);
      const amount = by ?? open.raiseBy;
      await this.decide(tx, open, { outcome: 'raised', by: who, raised: amount, at });
      await applyRaise(tx, open, amount, at);
      const others = open.limit === 'person' || open.limit === 'team' ? await new BudgetHoldRepo(tx.sql).sharing(open) : [];
      for (const other of others) await this.decide(tx, other, { outcome: 'raised', by: who, raised: 0, at });
      return { hold: { ...open, decidedAt: at, decidedBy: who, outcome: 'raised' as const, raised: amount }, others };
    });
    // Tasks stopped at the same person's day or team's month go on with this one.
    await this.resumeWhenReleased(taskId);
    for (const other of hold.others) await this.resumeWhenReleased(other.taskId).catch(() => undefined); // one cancelled meanwhile stays so
    return hold.hold;
  }

  /** Refuses the raise: the task is cancelled with the question as its reason. */
  async decline(taskId: string, reason: string | undefined, who: Actor): Promise<BudgetHold> {
    const at = isoAt(this.core.clock.now());
    const hold = await this.core.store.transaction(async (tx) => {
      const open = await this.openHold(tx, taskId);
      await this.decide(tx, open, { outcome: 'declined', by: who, at });
      return { ...open, decidedAt: at, decidedBy: who, outcome: 'declined' as const };
    });
    await this.core.engine.cancel(taskId, `budget not raised by ${who.name}${reason ? `: ${reason}` : ''}`);
    return hold;
  }

  /** Each person's spend on `day` and the team's in its month, with the limits raises made. */
  async summary(day = isoAt(this.core.clock.now()).slice(0, 10)): Promise<SpendSummary> {
    const ledger = new SpendRepo(this.core.store.sql);
    const { month } = periodsOf(day);
    const people = await Promise.all(
      (await ledger.people(day)).map(async (p) => {
        const limit = this.guard.effective('person', (await ledger.personDay(p.subject, day)).raised);
        return { ...p, ...(limit && { limit }) };
      }),
    );
    const team = await ledger.teamMonth(month);
    const limit = this.guard.effective('team', team.raised);
    return { day, month, people, team: { ...team.spent, ...(limit && { limit }) } };
  }

  private async openHold(tx: Repos, taskId: string): Promise<BudgetHold> {
    const task = await tx.tasks.get(taskId);
    if (!task) throw new AgentDeskError('not_found', `no task ${taskId}`);
    if (isTerminal(task.state)) throw new AgentDeskError('conflict', `task ${taskId} is already ${task.state}`, { taskId });
    const open = await new BudgetHoldRepo(tx.sql).current(taskId);
    if (!open || task.state !== 'waiting_user') {
      throw new AgentDeskError('conflict', `task ${taskId} is not waiting on a budget (it is ${task.state})`, { taskId });
    }
    return open;
  }

  private async decide(tx: Repos, hold: BudgetHold, d: Parameters<BudgetHoldRepo['decide']>[1]): Promise<void> {
    if (!(await new BudgetHoldRepo(tx.sql).decide(hold.id, d))) {
      throw new AgentDeskError('conflict', `the budget question of task ${hold.taskId} was answered already`, { holdId: hold.id });
    }
    const data = {
      source: 'budget',
      action: d.outcome === 'raised' ? 'accept' : 'decline',
      holdId: hold.id,
      limit: hold.limit,
      metric: hold.metric,
      raised: d.raised ?? 0,
      by: d.by.name,
    };
    await this.core.trace.append(hold.taskId, 'user.answered', data, undefined, tx.trace);
  }

  /** The run that asked may still be letting go of the task (its last commit, its lease): resume once it has. */
  private async resumeWhenReleased(taskId: string): Promise<void> {
    const until = Date.now() + RELEASE_WAIT_MS;
    for (;;) {
      try {
        if (!this.core.engine.isRunningHere(taskId)) {
          await this.core.engine.resume(taskId);
          return;
        }
      } catch (error) {
        if (!(error instanceof AgentDeskError && error.code === 'conflict') || Date.now() > until) throw error;
      }
      if (Date.now() > until) throw new AgentDeskError('conflict', `task ${taskId} is still held by its run; resume it with tasks.resume`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** The raise itself: the task's budget field, the owner's day or the team's month in the ledger; a loop needs none. */
async function applyRaise(tx: Repos, hold: BudgetHold, amount: number, at: string): Promise<void> {
  const ledger = new SpendRepo(tx.sql);
  const by = hold.metric === 'usd' ? { usd: amount } : { tokens: amount };
  if (hold.limit === 'person') return ledger.raise('person', hold.subject ?? 'local', hold.period ?? periodsOf(at).day, by);
  if (hold.limit === 'team') return ledger.raise('team', '', hold.period ?? periodsOf(at).month, by);
  if (hold.limit !== 'task') return;
  const task = (await tx.tasks.get(hold.taskId)) as Task;
  const field = BUDGET_FIELD[hold.metric];
  if (!field) return;
  const raised = field === 'maxCostUsd' ? task.budget[field] + amount : Math.round(task.budget[field] + amount);
  await new BudgetHoldRepo(tx.sql).setTaskBudget(hold.taskId, { ...task.budget, [field]: raised }, at);
}
