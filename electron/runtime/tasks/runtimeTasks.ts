import type { AgentRuntime } from '../agentRuntime.js';
import { registryChecks } from '../planning/playbook/parse.js';
import { AgentRepo } from '../store/agentRepo.js';
import type { TaskServiceDeps } from './createTask.js';

/** The task service's parts in a runtime: its engine, the configured budget, its agents and tools. */
export function runtimeTaskDeps(rt: AgentRuntime): TaskServiceDeps {
  const agents = new AgentRepo(rt.store.db);
  return {
    engine: rt.engine,
    configBudget: rt.options.config.budget,
    agent: (name) => agents.get(name),
    playbookChecks: () => registryChecks(rt.registry),
  };
}
