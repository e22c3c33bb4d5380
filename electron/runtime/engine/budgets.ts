import type { Budget, Usage } from '../../contract/index.js';

/** The first exhausted budget, as a reason a user can read, or undefined. */
export function exhaustedBudget(budget: Budget, usage: Usage): string | undefined {
  if (usage.steps >= budget.maxSteps) return `step budget exhausted: ${usage.steps}/${budget.maxSteps} steps`;
  const tokens = usage.tokensIn + usage.tokensOut;
  if (tokens >= budget.maxTokens) return `token budget exhausted: ${tokens}/${budget.maxTokens} tokens`;
  if (usage.costUsd >= budget.maxCostUsd) return `cost budget exhausted: $${usage.costUsd.toFixed(4)}/$${budget.maxCostUsd}`;
  if (usage.wallMs >= budget.maxWallMs) return `wall-time budget exhausted: ${Math.round(usage.wallMs)}/${budget.maxWallMs} ms`;
  return undefined;
}

/** A fresh usage record. */
export const emptyUsage = (): Usage => ({ steps: 0, modelCalls: 0, tokensIn: 0, tokensOut: 0, costUsd: 0, wallMs: 0 });
