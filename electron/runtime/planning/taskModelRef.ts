import type { ModelsConfig, Task } from '../../contract/index.js';
import type { RuntimeCore } from '../core/runtimeCore.js';
import { AgentDeskError } from '../errors.js';
import { AgentRepo } from '../store/agentRepo.js';

/** The model reference a goal task runs with; none configured anywhere is a clear failure. */
export async function modelRefFor(rt: Pick<RuntimeCore, 'store'>, task: Task, models: ModelsConfig): Promise<string> {
  const own = task.plan.kind === 'goal' ? task.plan.model : undefined;
  const agent = task.agent !== undefined ? (await new AgentRepo(rt.store.sql).get(task.agent))?.model : undefined;
  const ref = own ?? agent ?? models.defaultModel;
  if (ref === undefined) {
    throw new AgentDeskError(
      'invalid_params',
      'no model configured for this goal task: set models.defaultModel in config.json (e.g. "openai:gpt-4.1-mini"), or give the task or its agent a model',
    );
  }
  return ref;
}
