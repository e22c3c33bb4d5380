import type { Task } from '../../../contract/index.js';
import type { RuntimeCore } from '../../core/runtimeCore.js';
import { parsePlaybook } from '../playbook/parse.js';
import { modelRefFor } from '../taskModelRef.js';
import { healedPlaybook } from './healedPlaybook.js';
import { recordPlaybook, type RecordedPlaybook } from './recordPlaybook.js';

/**
 * Records a task of this runtime as a playbook. A goal task: its steps, the healing model
 * defaulting to the one the task ran with (its own, its agent's, else the configured default;
 * none known → no healing). A succeeded replay of a recorded playbook: that playbook with the
 * steps the model healed written in (`healed` lists them), so the next replay needs no model.
 */
export async function recordTask(
  rt: RuntimeCore,
  taskId: string,
  options: { model?: string } = {},
): Promise<RecordedPlaybook & { healed?: number[] }> {
  const task = await rt.engine.get(taskId);
  if (task.plan.kind === 'playbook' && task.state === 'succeeded' && healable(task))
    return healedPlaybook(task, await rt.engine.steps(task.id));
  const model = options.model ?? (await modelUsedBy(rt, task));
  return recordPlaybook(task, await rt.engine.steps(task.id), model === undefined ? {} : { model });
}

/** A playbook that names a healing model (a recording): its replays can heal, and be saved healed. */
export function healable(task: Task): boolean {
  return task.plan.kind === 'playbook' && parsePlaybook(task.plan.source).heal !== undefined;
}

async function modelUsedBy(rt: RuntimeCore, task: Task): Promise<string | undefined> {
  try {
    return await modelRefFor(rt, task, rt.config.current().models);
  } catch {
    return undefined; // no model configured anywhere: the playbook replays without healing
  }
}
