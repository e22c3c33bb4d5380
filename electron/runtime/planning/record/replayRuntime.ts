import type { AgentRuntime } from '../../agentRuntime.js';
import { loadConfig } from '../../config.js';
import type { PlanFactory } from '../../engine/ports.js';
import type { SecretStore } from '../../secrets/secretStore.js';
import { taskModelProvider } from '../taskModelProvider.js';
import { withPlaybookHealing } from './replayPlans.js';

/**
 * Recorded playbooks as the product replays them: the healing model resolved from the config's
 * `models` section with its key from the secret store, each call a `model.call` trace event.
 */
export function runtimeReplayPlans(runtime: () => AgentRuntime, secrets: SecretStore): (plans: PlanFactory) => PlanFactory {
  const models = () => loadConfig(runtime().options.home).models;
  return withPlaybookHealing({
    registry: () => runtime().registry,
    provider: (model, task) => taskModelProvider(runtime(), task, model, models(), secrets),
    prices: () => models().prices,
  });
}
