import type { Step } from '../../contract/index.js';
import type { PlannerDecision } from '../planning/planner.js';

type CallDecision = Extract<PlannerDecision, { type: 'call' }>;

/** A step's id and idempotency key: the key is per plan position, shared by every attempt. */
export function stepIdentity(taskId: string, index: number, attempt: number): Pick<Step, 'id' | 'idempotencyKey'> {
  return { id: `stp_${taskId.replace(/^tsk_/, '')}_${index}_${attempt}`, idempotencyKey: `${taskId}:${index}` };
}

/**
 * A fresh record for the next attempt at a plan position. The idempotency key is per position,
 * so every attempt and every re-run of that position presents the same key downstream.
 */
export function nextStepRecord(
  taskId: string,
  decision: CallDecision,
  previous: Step | undefined,
  fields: Pick<Step, 'tool' | 'args' | 'status' | 'readOnly' | 'idempotent' | 'startedAt'> & Partial<Step>,
): Step {
  const attempt = (previous?.attempt ?? 0) + 1;
  return {
    ...stepIdentity(taskId, decision.index, attempt),
    taskId,
    index: decision.index,
    attempt,
    ...(decision.planStepId !== undefined && { planStepId: decision.planStepId }),
    // The model call that chose this step is charged to it (cost per step in `tasks.get`).
    tokens: decision.usage ? decision.usage.tokensIn + decision.usage.tokensOut : 0,
    costUsd: decision.usage?.costUsd ?? 0,
    ...fields,
  };
}
