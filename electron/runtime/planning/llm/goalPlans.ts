import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AcceptanceCheck, Playbook, Task } from '../../../contract/index.js';
import type { ContextOptions } from '../../context/contextBuilder.js';
import type { PlanFactory, TaskPlan } from '../../engine/ports.js';
import { LazyProvider } from '../../models/meteredProvider.js';
import type { PriceTable } from '../../models/pricing.js';
import type { ModelProvider } from '../../models/types.js';
import { RedactingProvider } from '../../secrets/redactingProvider.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { Redactor } from '../../trace/redactor.js';
import { ToolRouter } from '../../tools/router.js';
import type { Tier } from '../../../contract/index.js';
import { GoalPlanner, type IntentHooks } from './goalPlanner.js';
import { DEFAULT_SYSTEM_PROMPT, LlmPlanner, type LlmPlannerOptions } from './llmPlanner.js';
import type { PlannerStateStore } from './plannerState.js';
import { buildCatalog } from './toolCatalog.js';

/** How goal tasks are planned by a model. */
export interface LlmGoalOptions {
  /** The tools a task may be offered (filtered per task when it starts). */
  registry: ToolRegistry;
  /** Called when the task first plans (not at creation), so a missing model fails the task, not `tasks.create`. */
  provider: (task: Task) => ModelProvider | Promise<ModelProvider>;
  /** The checks that decide success (from intent review, an eval file, …). */
  acceptance: (task: Task) => AcceptanceCheck[];
  /** A table, or a getter read when each task's plan is built (config may change between tasks). */
  prices?: PriceTable | (() => PriceTable);
  systemPrompt?: string;
  /** The memory snapshot for the task's stable prefix (read once, at its first model call). */
  memory?: (task: Task) => string | undefined | Promise<string | undefined>;
  /** The skills' names and descriptions for the task's stable prefix (read once, at its first model call). */
  skills?: (task: Task) => string | undefined | Promise<string | undefined>;
  /** Where each task's conversation is saved, so a resumed task continues it. */
  plannerState?: (task: Task) => PlannerStateStore;
  /** Lower tiers offered even where a higher tier covers the capability. */
  includeTiers?: readonly Tier[];
  context?: ContextOptions;
  maxMalformedTurns?: number;
  onPlanner?: (task: Task, planner: LlmPlanner) => void;
  onModelCall?: LlmPlannerOptions['onModelCall'];
  /** Goal tasks without checks get a proposal to review and wait for it; none succeeds without checks. */
  intent?: IntentHooks;
  /** The runtime's redactor: every request the model receives passes it (tool results included). */
  redactor?: Redactor;
  /** The model-space size of the task's desktop when it has one (`sandbox: "desktop"`): computer use is declared to the model. */
  computer?: (task: Task) => { width: number; height: number } | undefined;
}

/** Reads the workspace's AGENTS.md, the project context file that joins the stable prefix. */
export function readProjectContext(workspace: string): string | undefined {
  try {
    return readFileSync(path.join(workspace, 'AGENTS.md'), 'utf8');
  } catch {
    return undefined;
  }
}

/** Routes `goal` tasks to an LLM planner and leaves playbooks to the playbook factory. */
export function withLlmGoals(options: LlmGoalOptions): (playbooks: PlanFactory) => PlanFactory {
  return (playbooks) =>
    async (task: Task, parsed?: Playbook): Promise<TaskPlan> => {
      if (task.plan.kind !== 'goal') return playbooks(task, parsed);
      // With the task: only the tools its agent may use are offered.
      const offered = await new ToolRouter(options.registry).offer({
        task,
        ...(options.includeTiers && { includeTiers: options.includeTiers }),
      });
      const goal = task.plan.goal;
      // Computer use is the provider's own protocol over the real `computer` tool, when the task may use it.
      const computer = offered.some((t) => t.name === 'computer') ? options.computer?.(task) : undefined;
      const provider = new LazyProvider(async () => {
        const model = await options.provider(task);
        return options.redactor ? new RedactingProvider(model, options.redactor) : model;
      });
      const prices = typeof options.prices === 'function' ? options.prices() : options.prices;
      const planner = new LlmPlanner({
        provider,
        catalog: buildCatalog(offered),
        prefix: async () => {
          const projectContext = readProjectContext(task.workspace);
          const memory = await options.memory?.(task);
          const skills = await options.skills?.(task);
          return {
            systemPrompt: options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
            goal,
            ...(projectContext !== undefined && { projectContext }),
            ...(memory !== undefined && { memory }),
            ...(skills !== undefined && { skills }),
          };
        },
        ...(prices && { prices }),
        ...(options.context && { context: options.context }),
        ...(options.maxMalformedTurns !== undefined && { maxMalformedTurns: options.maxMalformedTurns }),
        ...(options.onModelCall && { onModelCall: options.onModelCall }),
        ...(options.plannerState && { state: options.plannerState(task) }),
        ...(computer && { computer }),
      });
      options.onPlanner?.(task, planner);
      const acceptance = () => options.acceptance(task);
      const goalPlanner = new GoalPlanner(task, planner, provider, {
        acceptance,
        prices: prices ?? {},
        ...(options.intent && { intent: options.intent }),
      });
      return { planner: goalPlanner, services: [], baseDir: task.workspace, acceptance };
    };
}
