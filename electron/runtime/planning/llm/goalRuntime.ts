import type { ModelsConfig, Task } from '../../../contract/index.js';
import type { AgentRuntime } from '../../agentRuntime.js';
import { systemClock } from '../../clock.js';
import { loadConfig } from '../../config.js';
import type { PlanFactory } from '../../engine/ports.js';
import { AgentDeskError } from '../../errors.js';
import { chooseModelSpace } from '../../gui/coordinates.js';
import { memorySnapshot } from '../../memory/index.js';
import type { SecretStore } from '../../secrets/secretStore.js';
import { AgentRepo } from '../../store/agentRepo.js';
import type { ModelProvider } from '../../models/types.js';
import { meteredTaskProvider, taskModelProvider } from '../taskModelProvider.js';
import { withLlmGoals } from './goalPlans.js';
import { pendingProposal } from './intentReview.js';
import { storedPlannerState } from './plannerState.js';
import { offeredSkills } from '../../skills/taskSkills.js';

/**
 * Goal tasks as the product runs them: the model from the task, else its agent, else
 * `models.defaultModel`; the key from the secret store; every model call a `model.call` trace
 * event; checks from intent review; the conversation saved with the task, so a resumed task
 * continues it; the skills of the user and the workspace by name in the prompt; the task's
 * memory snapshot in the prompt when `memory.inPrompt` is set. Config
 * is read per task, so `settings.set` applies to the next goal task without a restart.
 */
export function runtimeGoalPlans(
  runtime: () => AgentRuntime,
  secrets: SecretStore,
  /** An in-process model instead of the configured one (`bench step --planner model`); metered and redacted the same. */
  inProcessModel?: (task: Task) => ModelProvider,
): (playbooks: PlanFactory) => PlanFactory {
  const models = () => loadConfig(runtime().options.home).models;
  return withLlmGoals({
    computer: (task) => (task.sandbox === 'desktop' ? chooseModelSpace(loadConfig(runtime().options.home).sandbox.screen) : undefined),
    registry: () => runtime().registry,
    provider: (task) => {
      const rt = runtime();
      const config = models();
      if (inProcessModel) return meteredTaskProvider(rt, task, inProcessModel(task), config);
      return taskModelProvider(rt, task, modelRefFor(rt, task, config), config, secrets);
    },
    acceptance: (task) => (task.plan.kind === 'goal' ? (task.plan.acceptance ?? []) : []),
    prices: () => models().prices,
    memory: (task) => {
      const rt = runtime();
      return loadConfig(rt.options.home).memory.inPrompt ? memorySnapshot(rt, task) || undefined : undefined;
    },
    skills: (task) => offeredSkills(runtime(), task),
    plannerState: (task) => storedPlannerState(runtime().store, task.id, runtime().options.clock ?? systemClock),
    intent: {
      pending: (task) => pendingProposal(runtime(), task),
      proposed: (task, checks) => void runtime().trace.append(task.id, 'intent.proposed', { checks }),
    },
  });
}

/** The model reference a goal task runs with; none configured anywhere is a clear failure. */
export function modelRefFor(rt: AgentRuntime, task: Task, models: ModelsConfig): string {
  const own = task.plan.kind === 'goal' ? task.plan.model : undefined;
  const agent = task.agent !== undefined ? new AgentRepo(rt.store.db).get(task.agent)?.model : undefined;
  const ref = own ?? agent ?? models.defaultModel;
  if (ref === undefined) {
    throw new AgentDeskError(
      'invalid_params',
      'no model configured for this goal task: set models.defaultModel in config.json (e.g. "openai:gpt-4.1-mini"), or give the task or its agent a model',
    );
  }
  return ref;
}
