import type { Step, Task } from '../../../electron/contract/index.js';

/** What a task has used, as every view shows it. */
export interface TaskCounters {
  steps: number;
  tokens: number;
  costUsd: number;
}

const RAN: ReadonlySet<Step['status']> = new Set(['completed', 'failed', 'denied', 'uncertain', 'skipped']);

/**
 * The one source of a task's step, token and cost counters. The task row's usage is written in
 * batches behind the steps, so before it catches up the steps already seen count instead: the
 * numbers never go backwards and never disagree with the step cards on the same page.
 */
export function taskCounters(task: Task, steps: readonly Step[] = []): TaskCounters {
  const ran = new Set(steps.filter((s) => RAN.has(s.status)).map((s) => s.index)).size;
  const stepTokens = steps.reduce((sum, s) => sum + s.tokens, 0);
  const stepCost = steps.reduce((sum, s) => sum + s.costUsd, 0);
  return {
    steps: Math.max(task.usage.steps, ran),
    tokens: Math.max(task.usage.tokensIn + task.usage.tokensOut, stepTokens),
    costUsd: Math.max(task.usage.costUsd, stepCost),
  };
}
