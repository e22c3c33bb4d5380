import type { Budget, BudgetHold, BudgetMetric, ServerText, Usage } from '../../contract/index.js';
import type { StateReason } from './stateReasons.js';

/** A limit a task reached: what the hold records and the question the task waits on. */
export interface BudgetStop {
  hold: Pick<BudgetHold, 'limit' | 'metric' | 'spent' | 'cap' | 'raiseBy'> & Partial<Pick<BudgetHold, 'subject' | 'period'>>;
  why: StateReason;
}

/** The task budget's field for each metric a raise may change. */
export const BUDGET_FIELD: Partial<Record<BudgetMetric, keyof Budget>> = {
  usd: 'maxCostUsd',
  tokens: 'maxTokens',
  steps: 'maxSteps',
  wallMs: 'maxWallMs',
};

/** The smallest of 1, 2, 5 × 10^k at or above `x`: a round raise a person reads at a glance. */
export function roundRaise(x: number): number {
  if (!(x > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 5, 10]) if (m * power >= x - 1e-12) return m * power;
  return 10 * power;
}

/** The suggested raise: about a quarter of the limit, rounded up; at least a cent / one unit. */
export function suggestedRaise(metric: BudgetMetric, cap: number): number {
  const raise = roundRaise(cap / 4);
  return metric === 'usd' ? Math.max(0.01, raise) : Math.max(1, Math.round(raise));
}

/** An amount as the question shows it: `$2.50`, `1,500 tokens`, `3 steps`, `120 s`. */
export function formatAmount(metric: BudgetMetric, n: number): string {
  if (metric === 'usd') return `$${n.toFixed(2)}`;
  if (metric === 'tokens') return `${Math.round(n).toLocaleString('en-US')} tokens`;
  if (metric === 'steps') return `${n} steps`;
  if (metric === 'wallMs') return `${Math.round(n / 1000)} s`;
  return `${n} times`;
}

/** An amount as a catalog text (`amount.usd` …), so the unit is in the reader's language. */
function amountText(metric: BudgetMetric, n: number): ServerText {
  const value = metric === 'usd' ? n.toFixed(2) : metric === 'wallMs' ? Math.round(n / 1000) : Math.round(n);
  return { code: `amount.${metric}`, params: { n: value } };
}

/** What a model call spends: checked before planning, when no step is about to run yet. */
export const SPEND_METRICS: readonly BudgetMetric[] = ['tokens', 'usd'];

/**
 * The task's own budget, first exhausted metric: steps, tokens, dollars, then wall time — of
 * `metrics` only (before planning, the spend ones: a task whose last step used its last step of
 * budget has nothing left to run and finishes).
 */
export function taskBudgetStop(budget: Budget, usage: Usage, metrics?: readonly BudgetMetric[]): BudgetStop | undefined {
  const tokens = usage.tokensIn + usage.tokensOut;
  const checks: [BudgetMetric, number, number][] = [
    ['steps', usage.steps, budget.maxSteps],
    ['tokens', tokens, budget.maxTokens],
    ['usd', usage.costUsd, budget.maxCostUsd],
    ['wallMs', Math.round(usage.wallMs), budget.maxWallMs],
  ];
  const over = checks.find(([metric, spent, cap]) => (!metrics || metrics.includes(metric)) && spent >= cap);
  if (!over) return undefined;
  const [metric, spent, cap] = over;
  return limitStop({ limit: 'task', metric, spent, cap, raiseBy: suggestedRaise(metric, cap) });
}

/** A stop at a limit, with its question in English and as a catalog code. */
export function limitStop(hold: BudgetStop['hold'], who?: string): BudgetStop {
  const spent = formatAmount(hold.metric, hold.spent);
  const limit = formatAmount(hold.metric, hold.cap);
  const raise = formatAmount(hold.metric, hold.raiseBy);
  const params = {
    spent: amountText(hold.metric, hold.spent),
    limit: amountText(hold.metric, hold.cap),
    raise: amountText(hold.metric, hold.raiseBy),
    who: who ?? hold.subject ?? '',
  };
  const words: Record<BudgetHold['limit'], [string, string]> = {
    task: [`this task has spent ${spent} of ${limit}; raise by ${raise}?`, 'state.budgetAskTask'],
    person: [`${params.who} has spent ${spent} of ${limit} today; raise by ${raise}?`, 'state.budgetAskPerson'],
    team: [`the team has spent ${spent} of ${limit} this month; raise by ${raise}?`, 'state.budgetAskTeam'],
    loop: [`${params.who} repeated ${hold.spent} times with the same arguments and no new result; let it go on?`, 'state.loopAsk'],
  };
  const [reason, code] = words[hold.limit];
  return { hold, why: { reason, text: { code, params } } };
}

/** A loop as a stop: the same call with the same result `repeats` times; a raise lets it go on. */
export function loopStop(tool: string, repeats: number): BudgetStop {
  return limitStop({ limit: 'loop', metric: 'repeats', spent: repeats, cap: repeats, raiseBy: repeats }, tool);
}
