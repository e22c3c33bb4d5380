import type { Task } from '../../../contract/index.js';
import type { PlanFactory } from '../../engine/ports.js';
import { AgentDeskError } from '../../errors.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { parsePlaybook, registryChecks } from './parse.js';
import { PlaybookPlanner, resolveAcceptance } from './planner.js';

/**
 * Builds the plan of a playbook task: parses (and validates against the registered tools'
 * schemas) the playbook text stored on the task.
 */
export function playbookPlanFactory(registry: ToolRegistry): PlanFactory {
  const checks = registryChecks(registry);
  return (task, parsed) => {
    if (task.plan.kind !== 'playbook') {
      throw new AgentDeskError('invalid_params', `no planner for "${task.plan.kind}" tasks in this build`);
    }
    const playbook = parsed ?? parsePlaybook(task.plan.source, { ...checks, source: task.title });
    return {
      planner: new PlaybookPlanner(playbook),
      services: playbook.services,
      baseDir: task.plan.baseDir,
      playbook,
      acceptance: ({ inputs, outputs, env, task: t }) =>
        resolveAcceptance(playbook, {
          inputs: { ...defaultsOf(playbook), ...inputs },
          steps: Object.fromEntries(Object.entries(outputs).map(([id, output]) => [id, { output }])),
          services: env.services,
          workspace: t.workspace,
          task: { id: t.id },
        }),
    };
  };
}

function defaultsOf(playbook: ReturnType<typeof parsePlaybook>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, decl] of Object.entries(playbook.inputs)) if (decl.default !== undefined) out[name] = decl.default;
  return out;
}
