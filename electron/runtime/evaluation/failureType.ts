import type { Task } from '../../contract/index.js';

/** Why an eval task did not succeed, as one stable word. */
export type FailureType =
  | 'acceptance_failed'
  | 'model_gave_up'
  | 'malformed_calls'
  | 'tool_errors'
  | 'model_error'
  | 'approval_denied'
  | 'policy_denied'
  | 'budget_exceeded'
  | 'loop_detected'
  | 'waiting'
  | 'other';

/**
 * Classifies a finished task by the reason the engine recorded. A denial goes back to the model
 * as a tool error, so a goal task whose approval was denied usually ends on its checks: with
 * `deniedSteps`, that failure is put down to the denial, its cause.
 */
export function failureTypeOf(task: Task, deniedSteps = 0): FailureType | undefined {
  if (task.state === 'succeeded') return undefined;
  if (deniedSteps > 0 && task.state === 'failed' && /acceptance check failed/.test(task.stateReason ?? '')) return 'approval_denied';
  if (task.state !== 'failed' && task.state !== 'cancelled') return 'waiting';
  const reason = task.stateReason ?? '';
  const rules: [RegExp, FailureType][] = [
    [/acceptance check failed/, 'acceptance_failed'],
    [/the model gave up/, 'model_gave_up'],
    [/malformed tool calls/, 'malformed_calls'],
    [/tool calls in a row failed/, 'tool_errors'],
    [/the model call failed/, 'model_error'],
    [/denied by (?!policy)/, 'approval_denied'],
    [/denied by policy/, 'policy_denied'],
    [/budget|exceeded/, 'budget_exceeded'],
    [/loop detected/, 'loop_detected'],
  ];
  return rules.find(([re]) => re.test(reason))?.[1] ?? 'other';
}
