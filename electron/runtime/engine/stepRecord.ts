import type { Step } from '../../contract/index.js';
import type { PlannerDecision } from '../planning/planner.js';
import type { RouteCandidate } from '../tools/router.js';
import { extend } from '../extend.js';

type CallDecision = Extract<PlannerDecision, { type: 'call' }>;

/** A step's id and idempotency key: the key is per plan position, shared by every attempt. */
export function stepIdentity(taskId: string, index: number, attempt: number): Pick<Step, 'id' | 'idempotencyKey'> {
  const bare = taskId.startsWith('tsk_') ? taskId.slice(4) : taskId;
  return { id: `stp_${bare}_${index}_${attempt}`, idempotencyKey: `${taskId}:${index}` };
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
  const { id, idempotencyKey } = stepIdentity(taskId, decision.index, attempt);
  const identity = {
    id,
    idempotencyKey,
    taskId,
    index: decision.index,
    attempt,
    ...(decision.planStepId !== undefined && { planStepId: decision.planStepId }),
    // The model call that chose this step is charged to it (cost per step in `tasks.get`).
    tokens: decision.usage ? decision.usage.tokensIn + decision.usage.tokensOut : 0,
    costUsd: decision.usage?.costUsd ?? 0,
  };
  return extend(identity, fields);
}

/** What `step.started` says about a step (the policy only on the first candidate of a gated call). */
export function stepStartedData(step: Step, candidate: RouteCandidate, withPolicy: boolean): Record<string, unknown> {
  const policy = withPolicy && step.policy ? { policy: step.policy } : {};
  return {
    index: step.index,
    attempt: step.attempt,
    tool: candidate.tool.name,
    args: candidate.args,
    route: step.route,
    idempotencyKey: step.idempotencyKey,
    ...policy,
  };
}

/** After a retryable failure the route names the fallback that runs next, and why. */
export function withFallbackAttempt(step: Step, failed: RouteCandidate, next: RouteCandidate, detail: string): Step {
  const attempts = step.route?.attempts ?? [];
  const route = {
    tool: next.tool.name,
    tier: next.tool.tier,
    reason: `fallback: ${failed.tool.name} failed with a retryable error (${detail}); ${next.reason}`,
    attempts: [...attempts, { tool: failed.tool.name, tier: failed.tool.tier, outcome: 'retryable_error' as const, detail }],
  };
  return { ...step, route };
}

/**
 * A call a skill in use does not allow, or a PreToolUse hook denied, goes back to a model planner
 * as the call's error (it can do the allowed part, or stop), as a person's denial does; every
 * other denial by the gate (rules, agents, profiles) ends the task.
 */
export function deniedGoesBack(step: Step, decision: CallDecision): boolean {
  const source = step.policy?.source;
  return (source === 'skill' || source === 'hook') && decision.onDeny === 'continue';
}
