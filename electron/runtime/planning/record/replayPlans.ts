import type { Playbook, Task } from '../../../contract/index.js';
import type { PlanFactory, TaskPlan } from '../../engine/ports.js';
import type { PriceTable } from '../../models/pricing.js';
import type { ModelProvider } from '../../models/types.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { ToolRouter } from '../../tools/router.js';
import { buildCatalog } from '../llm/toolCatalog.js';
import { parsePlaybook } from '../playbook/parse.js';
import { HealingPlanner } from './healingPlanner.js';

/** How replayed playbooks reach a model when a step needs healing. */
export interface ReplayOptions {
  registry: ToolRegistry;
  /** The provider for the model a playbook's `heal.model` names. */
  provider: (model: string, task: Task) => ModelProvider;
  /** Read when a step first needs healing (the config may change between tasks). */
  prices?: () => PriceTable;
  onPlanner?: (task: Task, planner: HealingPlanner) => void;
}

/**
 * Playbooks that name a healing model (recorded runs) replay through a HealingPlanner; every
 * other task keeps the plan the wrapped factory builds.
 */
export function withPlaybookHealing(options: ReplayOptions): (plans: PlanFactory) => PlanFactory {
  return (plans) =>
    async (task: Task, parsed?: Playbook): Promise<TaskPlan> => {
      const plan = await plans(task, parsed);
      if (task.plan.kind !== 'playbook') return plan;
      // The wrapped factory validated the text already (and hands it over parsed).
      const playbook = plan.playbook ?? parsePlaybook(task.plan.source);
      const heal = playbook.heal;
      if (!heal) return plan;
      const offered = await new ToolRouter(options.registry).offer({ task }); // only the tools its agent may use
      const planner = new HealingPlanner({
        playbook,
        steps: plan.planner,
        healer: () => ({
          provider: options.provider(heal.model, task),
          catalog: buildCatalog(offered),
          ...(options.prices && { prices: options.prices() }),
        }),
      });
      options.onPlanner?.(task, planner);
      return { ...plan, planner };
    };
}
