import type { RuntimeCore } from '../../core/runtimeCore.js';
import type { RuntimeModule } from '../../core/runtimeModule.js';
import { taskModelProvider } from '../taskModelProvider.js';
import { withPlaybookHealing } from './replayPlans.js';

/**
 * Recorded playbooks as the product replays them: the healing model resolved from the config's
 * `models` section with its key from the secret store, each call a `model.call` trace event.
 */
export function replayModule(core: RuntimeCore): RuntimeModule {
  const models = () => core.config.current().models;
  const plans = withPlaybookHealing({
    registry: core.registry,
    provider: (model, task) => taskModelProvider(core, task, model, models()),
    prices: () => models().prices,
  });
  return { name: 'replay', plans };
}
