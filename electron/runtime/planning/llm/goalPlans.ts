import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AcceptanceCheck, Task } from '../../../contract/index.js';
import type { ContextOptions } from '../../context/contextBuilder.js';
import type { PlanFactory, TaskPlan } from '../../engine/ports.js';
import type { PriceTable } from '../../models/pricing.js';
import type { ModelProvider } from '../../models/types.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { ToolRouter } from '../../tools/router.js';
import type { Tier } from '../../../contract/index.js';
import { DEFAULT_SYSTEM_PROMPT, LlmPlanner, type LlmPlannerOptions } from './llmPlanner.js';
import { buildCatalog } from './toolCatalog.js';

/** How goal tasks are planned by a model. */
export interface LlmGoalOptions {
  /** The registry is read when a task starts (the runtime creates it after the plan factory). */
  registry: () => ToolRegistry;
  provider: (task: Task) => ModelProvider;
  /** The checks that decide success (from intent review, an eval file, …). */
  acceptance: (task: Task) => AcceptanceCheck[];
  prices?: PriceTable;
  systemPrompt?: string;
  memory?: (task: Task) => string | undefined;
  /** Lower tiers offered even where a higher tier covers the capability. */
  includeTiers?: readonly Tier[];
  context?: ContextOptions;
  maxMalformedTurns?: number;
  onPlanner?: (task: Task, planner: LlmPlanner) => void;
  onModelCall?: LlmPlannerOptions['onModelCall'];
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
    (task: Task): TaskPlan => {
      if (task.plan.kind !== 'goal') return playbooks(task);
      const offered = new ToolRouter(options.registry()).offer(options.includeTiers ? { includeTiers: options.includeTiers } : {});
      const goal = task.plan.goal;
      const planner = new LlmPlanner({
        provider: options.provider(task),
        catalog: buildCatalog(offered),
        prefix: () => {
          const projectContext = readProjectContext(task.workspace);
          const memory = options.memory?.(task);
          return {
            systemPrompt: options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
            goal,
            ...(projectContext !== undefined && { projectContext }),
            ...(memory !== undefined && { memory }),
          };
        },
        ...(options.prices && { prices: options.prices }),
        ...(options.context && { context: options.context }),
        ...(options.maxMalformedTurns !== undefined && { maxMalformedTurns: options.maxMalformedTurns }),
        ...(options.onModelCall && { onModelCall: options.onModelCall }),
      });
      options.onPlanner?.(task, planner);
      return { planner, services: [], baseDir: task.workspace, acceptance: () => options.acceptance(task) };
    };
}
