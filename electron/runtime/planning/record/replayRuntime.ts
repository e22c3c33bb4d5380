import type { Task } from '../../../contract/index.js';
import type { AgentRuntime } from '../../agentRuntime.js';
import { systemClock } from '../../clock.js';
import { loadConfig } from '../../config.js';
import type { PlanFactory } from '../../engine/ports.js';
import { MeteredProvider } from '../../models/meteredProvider.js';
import { resolveModelRef } from '../../models/modelRef.js';
import { createProvider } from '../../models/providerFactory.js';
import type { ModelProvider } from '../../models/types.js';
import type { SecretStore } from '../../secrets/secretStore.js';
import { withPlaybookHealing } from './replayPlans.js';

/**
 * Recorded playbooks as the product replays them: the healing model resolved from the config's
 * `models` section with its key from the secret store, each call a `model.call` trace event.
 */
export function runtimeReplayPlans(runtime: () => AgentRuntime, secrets: SecretStore): (plans: PlanFactory) => PlanFactory {
  const models = () => loadConfig(runtime().options.home).models;
  return withPlaybookHealing({
    registry: () => runtime().registry,
    provider: (model, task) => healProvider(runtime(), task, model, secrets),
    prices: () => models().prices,
  });
}

function healProvider(rt: AgentRuntime, task: Task, ref: string, secrets: SecretStore): ModelProvider {
  const clock = rt.options.clock ?? systemClock;
  const models = loadConfig(rt.options.home).models;
  const spec = resolveModelRef(ref, models, (name) => {
    const value = secrets.get(name);
    if (value !== undefined && value.length >= 4) rt.redactor.add(name, value); // never traced in clear
    return value;
  });
  return new MeteredProvider(createProvider(spec, clock), {
    clock,
    prices: models.prices,
    onCall: (call) => void rt.trace.append(task.id, 'model.call', { ...call }),
  });
}
