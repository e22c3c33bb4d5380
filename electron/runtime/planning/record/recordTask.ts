import type { RuntimeCore } from '../../core/runtimeCore.js';
import { modelRefFor } from '../taskModelRef.js';
import { recordPlaybook, type RecordedPlaybook } from './recordPlaybook.js';

/**
 * Records a task of this runtime as a playbook. The healing model defaults to the one the task
 * ran with (its own, its agent's, else the configured default); none known → no healing.
 */
export function recordTask(rt: RuntimeCore, taskId: string, options: { model?: string } = {}): RecordedPlaybook {
  const task = rt.engine.get(taskId);
  const model = options.model ?? modelUsedBy(rt, taskId);
  return recordPlaybook(task, rt.engine.steps(task.id), model === undefined ? {} : { model });
}

function modelUsedBy(rt: RuntimeCore, taskId: string): string | undefined {
  try {
    return modelRefFor(rt, rt.engine.get(taskId), rt.config.current().models);
  } catch {
    return undefined; // no model configured anywhere: the playbook replays without healing
  }
}
