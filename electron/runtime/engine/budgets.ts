import type { Budget, Usage } from '../../contract/index.js';
import type { StateReason } from './stateReasons.js';

/** The first exhausted budget, as a reason a user can read (and its catalog code), or undefined. */
export function exhaustedBudget(budget: Budget, usage: Usage): StateReason | undefined {
  const over = (reason: string, code: string, used: number | string, limit: number | string): StateReason => ({
    reason,
    text: { code, params: { used, limit } },
  });
  if (usage.steps >= budget.maxSteps)
    return over(`step budget exhausted: ${usage.steps}/${budget.maxSteps} steps`, 'state.budgetSteps', usage.steps, budget.maxSteps);
  const tokens = usage.tokensIn + usage.tokensOut;
  if (tokens >= budget.maxTokens)
    return over(`token budget exhausted: ${tokens}/${budget.maxTokens} tokens`, 'state.budgetTokens', tokens, budget.maxTokens);
  if (usage.costUsd >= budget.maxCostUsd) {
    const used = `$${usage.costUsd.toFixed(4)}`;
    return over(`cost budget exhausted: ${used}/$${budget.maxCostUsd}`, 'state.budgetCost', used, `$${budget.maxCostUsd}`);
  }
  if (usage.wallMs >= budget.maxWallMs) {
    const used = Math.round(usage.wallMs);
    return over(`wall-time budget exhausted: ${used}/${budget.maxWallMs} ms`, 'state.budgetWall', used, budget.maxWallMs);
  }
  return undefined;
}

/** A fresh usage record. */
export const emptyUsage = (): Usage => ({ steps: 0, modelCalls: 0, tokensIn: 0, tokensOut: 0, costUsd: 0, wallMs: 0 });
