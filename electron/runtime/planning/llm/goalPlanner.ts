import type { AcceptanceCheck, Task } from '../../../contract/index.js';
import type { LazyProvider } from '../../models/meteredProvider.js';
import { costOf, type PriceTable } from '../../models/pricing.js';
import type { ModelUsage } from '../../models/types.js';
import type { Planner, PlannerDecision, PlannerState, PlannerUsage } from '../planner.js';
import { proposeChecks } from './intent.js';

/** The reason a goal task waits while its proposed checks are reviewed. */
export const REVIEW_REASON = 'review acceptance checks';

/** Where intent proposals are kept between the proposal and the review (the trace). */
export interface IntentHooks {
  /** The proposal already recorded and not yet reviewed, if any. */
  pending(task: Task): Promise<AcceptanceCheck[] | undefined>;
  /** Records a new proposal. */
  proposed(task: Task, checks: AcceptanceCheck[]): Promise<unknown>;
}

/**
 * The planner of a goal task: resolves the model (a missing one fails the task with the config
 * key to set), and with intent hooks makes sure no goal runs — so none succeeds — without
 * reviewed acceptance checks: it asks the model for a proposal and waits for the review.
 */
export class GoalPlanner implements Planner {
  readonly kind = 'llm';

  constructor(
    private readonly task: Task,
    private readonly inner: Planner,
    private readonly provider: LazyProvider,
    private readonly options: { acceptance: () => AcceptanceCheck[]; prices: PriceTable; intent?: IntentHooks },
  ) {}

  async next(state: PlannerState, signal: AbortSignal): Promise<PlannerDecision> {
    try {
      await this.provider.resolve();
    } catch (error) {
      return { type: 'fail', reason: error instanceof Error ? error.message : String(error) };
    }
    if (this.options.intent && this.options.acceptance().length === 0) return this.review(this.options.intent, signal);
    return this.inner.next(state, signal);
  }

  private async review(intent: IntentHooks, signal: AbortSignal): Promise<PlannerDecision> {
    if (await intent.pending(this.task)) return { type: 'wait', reason: REVIEW_REASON };
    const goal = this.task.plan.kind === 'goal' ? this.task.plan.goal : this.task.title;
    let outcome: Awaited<ReturnType<typeof proposeChecks>>;
    try {
      outcome = await proposeChecks(this.provider, goal, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      return { type: 'fail', reason: `proposing acceptance checks failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    const usage = this.plannerUsage(outcome.calls, outcome.usage);
    if (!outcome.ok) return { type: 'fail', reason: outcome.reason, usage };
    await intent.proposed(this.task, outcome.checks);
    return { type: 'wait', reason: REVIEW_REASON, usage };
  }

  private plannerUsage(calls: number, usage: ModelUsage): PlannerUsage {
    return {
      modelCalls: calls,
      tokensIn: usage.inputTokens,
      tokensOut: usage.outputTokens,
      costUsd: costOf(this.options.prices, this.provider.model, usage),
    };
  }
}
