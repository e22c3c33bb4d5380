import type { RuntimeCore } from '../core/runtimeCore.js';
import { reviewChecks } from '../planning/llm/intentReview.js';
import type { Handlers } from './handlers.js';

/** `tasks.reviewChecks`: stores a goal task's reviewed checks and lets a waiting task continue. */
export function intentHandlers(rt: RuntimeCore): Handlers {
  return {
    'tasks.reviewChecks': async (p) => {
      const before = await rt.engine.get(p.taskId);
      const task = await reviewChecks(rt, p.taskId, p.checks);
      // A paused task stays paused: the person paused it on purpose.
      if (p.start && (before.state === 'waiting_user' || before.state === 'queued')) return rt.engine.resume(task.id);
      return task;
    },
  };
}
