import type { RuntimeCore } from '../core/runtimeCore.js';
import { discoverSkills, skillRoots } from '../skills/discovery.js';
import type { Handlers } from './handlers.js';

/** `skills.list` over RPC: the same discovery as `agent-desk skills list`, plus a task's skills in use. */
export function skillHandlers(rt: Pick<RuntimeCore, 'home' | 'engine' | 'skills'>): Handlers {
  return {
    'skills.list': async (p) => {
      if (p.taskId === undefined) return discoverSkills(skillRoots(rt.home));
      const task = await rt.engine.get(p.taskId); // not_found for an unknown task
      // Read from the task's steps now: another process may be the one running it.
      rt.skills.reload(task.id);
      const inUse = (await rt.skills.inUse(task.id)).map(({ skill, stepId, allowedTools }) => ({
        skill,
        stepId,
        ...(allowedTools && { allowedTools: [...allowedTools] }),
      }));
      return { ...discoverSkills(skillRoots(rt.home, task.workspace)), inUse };
    },
  };
}
