import type { Task } from '../../../contract/index.js';
import type { RuntimeCore } from '../../core/runtimeCore.js';
import type { RuntimeModule } from '../../core/runtimeModule.js';
import { chooseModelSpace } from '../../gui/coordinates.js';
import type { MemoryService } from '../../memory/memoryService.js';
import type { ModelProvider } from '../../models/types.js';
import { offeredSkills } from '../../skills/taskSkills.js';
import { meteredTaskProvider, taskModelProvider } from '../taskModelProvider.js';
import { modelRefFor } from '../taskModelRef.js';
import { withLlmGoals } from './goalPlans.js';
import type { LlmPlanner } from './llmPlanner.js';
import { pendingProposal } from './intentReview.js';
import { storedPlannerState } from './plannerState.js';

/** A model run in this process instead of the configured ones (bench's and eval's scripted models); metered and redacted the same. */
export interface InProcessModel {
  provider: (task: Task) => ModelProvider;
  /** Sees each goal task's planner (eval counts its malformed calls and cache hits). */
  onPlanner?: (task: Task, planner: LlmPlanner) => void;
}

/**
 * Goal tasks as the product runs them: the model from the task, else its agent, else
 * `models.defaultModel`; the key from the secret store; every model call a `model.call` trace
 * event; checks from intent review; the conversation saved with the task, so a resumed task
 * continues it; the skills of the user and the workspace by name in the prompt; the task's
 * memory snapshot in the prompt when `memory.inPrompt` is set. The config is read per task
 * (`config.current()`), so `settings.set` applies to the next goal task without a restart.
 */
export function goalsModule(core: RuntimeCore, parts: { memory: MemoryService; model?: InProcessModel }): RuntimeModule {
  const models = () => core.config.current().models;
  const plans = withLlmGoals({
    computer: (task) => (task.sandbox === 'desktop' ? chooseModelSpace(core.config.current().sandbox.screen) : undefined),
    registry: core.registry,
    provider: async (task) => {
      const config = models();
      if (parts.model) return meteredTaskProvider(core, task, parts.model.provider(task), config);
      return taskModelProvider(core, task, await modelRefFor(core, task, config), config);
    },
    acceptance: (task) => (task.plan.kind === 'goal' ? (task.plan.acceptance ?? []) : []),
    prices: () => models().prices,
    memory: async (task) => (core.config.current().memory.inPrompt ? (await parts.memory.snapshotFor(task)) || undefined : undefined),
    skills: (task) => offeredSkills(core, task),
    plannerState: (task) => storedPlannerState(core.store, task.id, core.clock),
    intent: {
      pending: (task) => pendingProposal(core, task),
      proposed: (task, checks) => core.trace.append(task.id, 'intent.proposed', { checks }),
    },
    ...(parts.model?.onPlanner && { onPlanner: parts.model.onPlanner }),
  });
  return { name: 'goals', plans };
}
