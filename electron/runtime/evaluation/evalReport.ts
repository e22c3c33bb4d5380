import type { FailureType } from './failureType.js';

/** The outcome of one eval task. */
export interface EvalTaskResult {
  name: string;
  state: string;
  expected: 'succeeded' | 'failed';
  /** The task ended as the eval expected. */
  passed: boolean;
  reason?: string;
  failureType?: FailureType;
  steps: number;
  modelCalls: number;
  promptTokens: number;
  cachedPromptTokens: number;
  outputTokens: number;
  costUsd: number;
  approvalsAsked: number;
  malformedCalls: number;
  cacheHits: number;
}

/** What `agent-desk eval --json` prints. */
export interface EvalReport {
  suite: string;
  tasks: number;
  passed: number;
  /** Tasks that ended as expected / tasks. */
  passRate: number;
  /** Tasks that succeeded / tasks (a task meant to fail lowers it on purpose). */
  completionRate: number;
  failureTypes: Partial<Record<FailureType, number>>;
  totals: {
    steps: number;
    modelCalls: number;
    promptTokens: number;
    cachedPromptTokens: number;
    outputTokens: number;
    costUsd: number;
    approvalsAsked: number;
  };
  perTask: EvalTaskResult[];
}

/** Sums per-task results into the report. */
export function summarize(suite: string, results: EvalTaskResult[]): EvalReport {
  const sum = (pick: (r: EvalTaskResult) => number) => results.reduce((n, r) => n + pick(r), 0);
  const failureTypes: Partial<Record<FailureType, number>> = {};
  for (const r of results) if (r.failureType) failureTypes[r.failureType] = (failureTypes[r.failureType] ?? 0) + 1;
  const passed = results.filter((r) => r.passed).length;
  return {
    suite,
    tasks: results.length,
    passed,
    passRate: ratio(passed, results.length),
    completionRate: ratio(results.filter((r) => r.state === 'succeeded').length, results.length),
    failureTypes,
    totals: {
      steps: sum((r) => r.steps),
      modelCalls: sum((r) => r.modelCalls),
      promptTokens: sum((r) => r.promptTokens),
      cachedPromptTokens: sum((r) => r.cachedPromptTokens),
      outputTokens: sum((r) => r.outputTokens),
      costUsd: Math.round(sum((r) => r.costUsd) * 1e6) / 1e6,
      approvalsAsked: sum((r) => r.approvalsAsked),
    },
    perTask: results,
  };
}

const ratio = (a: number, b: number): number => (b === 0 ? 0 : Math.round((a / b) * 1000) / 1000);
