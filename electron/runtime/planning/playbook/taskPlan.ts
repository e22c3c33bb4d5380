import type { Playbook, Task } from '../../../contract/index.js';
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
  const known = new ParsedPlaybooks(registry);
  return (task, parsed) => {
    if (task.plan.kind !== 'playbook') {
      throw new AgentDeskError('invalid_params', `no planner for "${task.plan.kind}" tasks in this build`);
    }
    const playbook = parsed ?? known.parse(task.plan.source, task.title);
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

/** Texts parsed lately: a queue of the same playbook parses it once, not once a task. */
const KEPT_PLAYBOOKS = 64;

/**
 * Playbooks parsed from their texts, kept while the tools they were checked against are the same
 * (a tool registered or removed may change a verdict). YAML parsing and validation was a tenth of a
 * worker's CPU for a short task; each run gets its own copy, so no plan can change another's.
 */
class ParsedPlaybooks {
  private readonly byText = new Map<string, Playbook>();
  private revision = -1;
  private readonly checks: ReturnType<typeof registryChecks>;

  constructor(private readonly registry: ToolRegistry) {
    this.checks = registryChecks(registry);
  }

  parse(text: string, source: string): Playbook {
    if (this.registry.revision !== this.revision) {
      this.byText.clear();
      this.revision = this.registry.revision;
    }
    let playbook = this.byText.get(text);
    if (playbook === undefined) {
      playbook = parsePlaybook(text, { ...this.checks, source });
      if (this.byText.size >= KEPT_PLAYBOOKS) this.byText.delete(this.byText.keys().next().value!);
      this.byText.set(text, playbook);
    }
    return structuredClone(playbook);
  }
}
