import type { AcceptanceCheck, Task } from '../../electron/contract/index.js';
import type { RuntimeCore } from '../../electron/runtime/core/runtimeCore.js';
import { systemClock } from '../../electron/runtime/clock.js';
import { OpenAiChatProvider } from '../../electron/runtime/models/openaiChat.js';
import type { PriceTable } from '../../electron/runtime/models/pricing.js';
import { RetryingProvider } from '../../electron/runtime/models/retry.js';
import type { ModelProvider } from '../../electron/runtime/models/types.js';
import { withLlmGoals, type LlmGoalOptions } from '../../electron/runtime/planning/llm/goalPlans.js';
import { storedPlannerState } from '../../electron/runtime/planning/llm/plannerState.js';
import type { LlmPlanner } from '../../electron/runtime/planning/llm/llmPlanner.js';
import { openTestRuntime, type TestRuntime } from './runtime.js';

/** Test prices: $1 per million input tokens, $2 per million output, cached input $0.10. */
export const TEST_PRICES: PriceTable = { 'gpt-test': { inputPerMTok: 1, outputPerMTok: 2, cachedInputPerMTok: 0.1 } };

/**
 * A real runtime whose goal tasks are planned by an LLM planner over `provider`, their
 * conversation saved in the store as the product does (`reopen()` continues it).
 */
export function openLlmRuntime(
  provider: ModelProvider,
  acceptance: AcceptanceCheck[] = [],
  extra: Partial<LlmGoalOptions> = {},
): TestRuntime & { planners: LlmPlanner[] } {
  const planners: LlmPlanner[] = [];
  // A module over each runtime the harness opens (`reopen()` builds the plans on the new core).
  const harness = openTestRuntime({
    modules: (core) => [
      {
        name: 'test model',
        plans: withLlmGoals({
          registry: core.registry,
          plannerState: (task) => storedPlannerState(core.store, task.id, systemClock),
          redactor: core.redactor,
          provider: () => provider,
          acceptance: () => acceptance,
          prices: TEST_PRICES,
          onPlanner: (_task, planner) => planners.push(planner),
          ...extra,
        }),
      },
    ],
  });
  return Object.assign(harness, { planners });
}

/** The Chat Completions adapter on the real SDK, pointed at a wire-protocol server, with fast retries. */
export function chatProvider(baseURL: string): ModelProvider {
  return new RetryingProvider(new OpenAiChatProvider({ model: 'gpt-test', baseURL, apiKey: 'sk-test' }), systemClock, {
    maxRetries: 2,
    baseDelayMs: 1,
    maxDelayMs: 5,
  });
}

/** Creates a goal task. */
export function createGoalTask(rt: Pick<RuntimeCore, 'engine'>, goal: string): Promise<Task> {
  return rt.engine.create({ title: goal, plan: { kind: 'goal', goal }, inputs: {} });
}
