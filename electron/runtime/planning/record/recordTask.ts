import type { AgentRuntime } from '../../agentRuntime.js';
import { loadConfig } from '../../config.js';
import { modelRefFor } from '../llm/goalRuntime.js';
import { recordPlaybook, type RecordedPlaybook } from './recordPlaybook.js';

/**
 * Records a task of this runtime as a playbook. The healing model defaults to the one the task
 * ran with (its own, its agent's, else the configured default); none known → no healing.
 */
export function recordTask(rt: AgentRuntime, taskId: string, options: { model?: string } = {}): RecordedPlaybook {
  const task = rt.engine.get(taskId);
  const model = options.model ?? modelUsedBy(rt, taskId);
  return recordPlaybook(task, rt.engine.steps(task.id), model === undefined ? {} : { model });
}

function modelUsedBy(rt: AgentRuntime, taskId: string): string | undefined {
  try {
    return modelRefFor(rt, rt.engine.get(taskId), loadConfig(rt.options.home).models);
  } catch {
    return undefined; // no model configured anywhere: the playbook replays without healing
  }
}
