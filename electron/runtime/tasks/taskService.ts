import type { Budget, Playbook, Task } from '../../contract/index.js';
import type { TaskEngine, TaskSpec } from '../engine/taskEngine.js';
import type { Repos } from '../store/store.js';
import { registryChecks } from '../planning/playbook/parse.js';
import type { AgentRepo } from '../store/agentRepo.js';
import type { ToolRegistry } from '../tools/registry.js';
import { buildTask, parseTaskPlaybook, type BuiltTask, type TaskRequest, type TaskServiceDeps } from './createTask.js';

/**
 * The one way a task comes to exist: RPC `tasks.create`, CLI `run` and `queue add`, cron,
 * delegation, eval and bench all create here, so the playbook is parsed once, budgets merge in
 * one order and the same admission rules hold whoever asks.
 */
export class TaskService {
  private readonly deps: TaskServiceDeps;
  private readonly engine: Pick<TaskEngine, 'create'>;

  constructor(parts: {
    engine: Pick<TaskEngine, 'create'>;
    /** The configured budget (`budget` in config.json, read at start). */
    configBudget: Partial<Budget>;
    agents: Pick<AgentRepo, 'get'>;
    registry: ToolRegistry;
  }) {
    this.engine = parts.engine;
    this.deps = {
      configBudget: parts.configBudget,
      agent: (name) => parts.agents.get(name),
      playbookChecks: () => registryChecks(parts.registry),
    };
  }

  /** Builds a task spec from a request without creating anything (cron validates its jobs this way). */
  build(request: TaskRequest): Promise<BuiltTask> {
    return buildTask(this.deps, request);
  }

  /** Builds and records a task (queued; nothing runs yet), with the secret inputs for its run. */
  async create(request: TaskRequest): Promise<{ task: Task; secrets: Record<string, string> }> {
    const built = await this.build(request);
    return { task: await this.engine.create(built.spec), secrets: built.secrets };
  }

  /**
   * Records a task already built by `build` (or derived from a parent's, as delegation does).
   * `tx`: a transaction of the caller's the task joins (see TaskEngine.create); build before it,
   * since building reads the store.
   */
  createBuilt(spec: TaskSpec, tx?: Repos): Promise<Task> {
    return this.engine.create(spec, tx);
  }

  /** Parses and checks a playbook against the registry's tools (many tasks of one playbook parse once). */
  parsePlaybook(source: string, file?: string): Playbook {
    return parseTaskPlaybook(this.deps, source, file);
  }
}
