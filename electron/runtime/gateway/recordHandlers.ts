import type { RuntimeCore } from '../core/runtimeCore.js';
import { recordTask } from '../planning/record/recordTask.js';
import type { Handlers } from './handlers.js';

/** `tasks.record`: a succeeded goal task as a replayable playbook. */
export function recordHandlers(rt: RuntimeCore): Handlers {
  return {
    'tasks.record': (p) => recordTask(rt, p.taskId, p.model === undefined ? {} : { model: p.model }),
  };
}
