import type { AcceptanceCheck, Task } from '../../../contract/index.js';
import type { RuntimeCore } from '../../core/runtimeCore.js';
import { isoAt } from '../../clock.js';
import { AgentDeskError } from '../../errors.js';
import { REVIEW_REASON } from './goalPlanner.js';

/** States in which a goal task's checks may be set: before it runs, or while it waits. */
const REVIEWABLE = new Set<Task['state']>(['queued', 'waiting_user', 'paused']);

/** The proposal a goal task waits on, from its trace (undefined when none is pending). */
export async function pendingProposal(rt: RuntimeCore, task: Task): Promise<AcceptanceCheck[] | undefined> {
  if (task.plan.kind !== 'goal' || (task.plan.acceptance?.length ?? 0) > 0) return undefined;
  const event = await rt.store.trace.last(task.id, 'intent.proposed');
  return event ? (event.data.checks as AcceptanceCheck[]) : undefined;
}

/** True when the task stopped to have its proposed checks reviewed. */
export function waitsForReview(task: Task): boolean {
  return task.state === 'waiting_user' && task.stateReason === REVIEW_REASON;
}

/**
 * Stores the reviewed (accepted or edited) acceptance checks of a goal task and records the
 * review in the trace; the caller decides whether to continue the task.
 */
export async function reviewChecks(rt: RuntimeCore, taskId: string, checks: AcceptanceCheck[]): Promise<Task> {
  const task = await rt.engine.get(taskId);
  const plan = task.plan;
  if (plan.kind !== 'goal')
    throw new AgentDeskError('invalid_params', `task ${taskId} is not a goal task: its checks come from its playbook`);
  if (!REVIEWABLE.has(task.state)) {
    throw new AgentDeskError('conflict', `task ${taskId} is ${task.state}: checks are reviewed before it runs or while it waits`);
  }
  if (checks.length === 0) throw new AgentDeskError('invalid_params', 'a goal task needs at least one acceptance check');
  const proposed = await pendingProposal(rt, task);
  const at = isoAt(rt.clock.now());
  await rt.store.transaction(async (tx) => {
    await tx.tasks.setPlan(taskId, { ...plan, acceptance: checks }, at);
    const asProposed = proposed !== undefined && JSON.stringify(proposed) === JSON.stringify(checks);
    await rt.trace.append(taskId, 'intent.reviewed', { checks, asProposed }, undefined, tx.trace);
  });
  const updated = await rt.engine.get(taskId);
  rt.bus.emit('task.updated', updated);
  return updated;
}
