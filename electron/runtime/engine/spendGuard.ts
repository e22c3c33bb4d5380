import type { BudgetMetric, Spend, SpendBudgetsConfig, SpendLimit } from '../../contract/index.js';
import { periodsOf, type LedgerTotals, type SpendRepo } from '../store/spendRepo.js';
import { limitStop, suggestedRaise, type BudgetStop } from './budgetStop.js';

/** Who a task's spend is charged to: its owner, or the one local operator before people. */
export interface SpendOwner {
  subject: string;
  name: string;
}

/** The first metric of `limit` (raises added) that `totals` reached: dollars, then tokens. */
function reached(limit: SpendLimit | undefined, totals: LedgerTotals): { metric: BudgetMetric; spent: number; cap: number } | undefined {
  if (!limit) return undefined;
  const metrics: ['usd' | 'tokens', number | undefined][] = [
    ['usd', limit.usd],
    ['tokens', limit.tokens],
  ];
  for (const [metric, base] of metrics) {
    if (base === undefined) continue;
    const cap = base + totals.raised[metric];
    const spent = totals.spent[metric];
    if (spent >= cap - 1e-9) return { metric, spent, cap };
  }
  return undefined;
}

/**
 * The spend limits of config.json (`budgets`) against the ledger: a person's UTC day, then the
 * team's UTC month. Read in the transaction that charged the run's latest usage.
 */
export class SpendGuard {
  constructor(private readonly limits: SpendBudgetsConfig | undefined) {}

  /** False without limits: no run reads the ledger then. */
  get active(): boolean {
    return this.limits?.perPersonDaily !== undefined || this.limits?.perTeamMonthly !== undefined;
  }

  async check(ledger: SpendRepo, owner: SpendOwner, atIso: string): Promise<BudgetStop | undefined> {
    const { day, month } = periodsOf(atIso);
    if (this.limits?.perPersonDaily) {
      const hit = reached(this.limits.perPersonDaily, await ledger.personDay(owner.subject, day));
      if (hit)
        return limitStop(
          { limit: 'person', ...hit, raiseBy: raiseOf(hit, this.limits.perPersonDaily), subject: owner.subject, period: day },
          owner.name,
        );
    }
    if (this.limits?.perTeamMonthly) {
      const hit = reached(this.limits.perTeamMonthly, await ledger.teamMonth(month));
      if (hit) return limitStop({ limit: 'team', ...hit, raiseBy: raiseOf(hit, this.limits.perTeamMonthly), period: month });
    }
    return undefined;
  }

  /** The configured limits with the raises of a person's day / the team's month added. */
  effective(kind: 'person' | 'team', raised: Spend): SpendLimit | undefined {
    const base = kind === 'person' ? this.limits?.perPersonDaily : this.limits?.perTeamMonthly;
    if (!base) return undefined;
    return {
      ...(base.usd !== undefined && { usd: base.usd + raised.usd }),
      ...(base.tokens !== undefined && { tokens: base.tokens + raised.tokens }),
    };
  }
}

/** A raise of about a quarter of the configured limit (not of the raised one: raises do not grow). */
function raiseOf(hit: { metric: BudgetMetric }, limit: SpendLimit): number {
  return suggestedRaise(hit.metric, (hit.metric === 'usd' ? limit.usd : limit.tokens) ?? 1);
}

/** Tasks from before people (or started by a bare token) are the one local operator's, as the gateway names it. */
const UNOWNED: SpendOwner = { subject: 'local', name: 'local operator' };

/** Who a task's spend is charged to. */
export function spendOwnerOf(task: { owner?: SpendOwner | undefined }): SpendOwner {
  return task.owner ?? UNOWNED;
}
