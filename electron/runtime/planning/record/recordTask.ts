import type { Task } from '../../../contract/index.js';
import type { RuntimeCore } from '../../core/runtimeCore.js';
import { modelRefFor } from '../taskModelRef.js';
import { recordPlaybook, type RecordedPlaybook } from './recordPlaybook.js';

/**
 * Records a task of this runtime as a playbook. The healing model defaults to the one the task
 * ran with (its own, its agent's, else the configured default); none known → no healing.
 */
export async function recordTask(rt: RuntimeCore, taskId: string, options: { model?: string } = {}): Promise<RecordedPlaybook> {
  const task = await rt.engine.get(taskId);
  const model = options.model ?? (await modelUsedBy(rt, task));
  return recordPlaybook(task, await rt.engine.steps(task.id), model === undefined ? {} : { model });
}

async function modelUsedBy(rt: RuntimeCore, task: Task): Promise<string | undefined> {
  try {
    return await modelRefFor(rt, task, rt.config.current().models);
  } catch {
    return undefined; // no model configured anywhere: the playbook replays without healing
  }
}
