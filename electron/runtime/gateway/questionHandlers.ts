import type { RuntimeCore } from '../core/runtimeCore.js';
import type { Handlers } from './handlers.js';

/** `tasks.question` / `tasks.respond`: the questions tools ask mid-call, and the user's answers. */
export function questionHandlers(rt: RuntimeCore): Handlers {
  return {
    'tasks.question': async (p) => {
      await rt.engine.get(p.taskId); // unknown task → not_found
      const question = rt.questions.current(p.taskId);
      return question ? { question } : {};
    },
    'tasks.respond': async (p) => {
      await rt.engine.get(p.taskId);
      const question = rt.questions.answer(p.taskId, { action: p.action, ...(p.content !== undefined && { content: p.content }) });
      return { question, action: p.action };
    },
  };
}
