import type { HookEvent, HookInput, Task } from '../../contract/index.js';

/**
 * A hook's stdin JSON (`HookInputSchema`): the fields every event carries, in Claude Code's
 * snake_case (`session_id` is the task id, `cwd` its workspace), plus the event's own. The
 * caller redacts it before it is written.
 */
export function hookInput(event: HookEvent, task: Task, fields: Record<string, unknown>): HookInput {
  return {
    hook_event_name: event,
    session_id: task.id,
    task_id: task.id,
    cwd: task.workspace,
    task_title: task.title,
    task_kind: task.plan.kind,
    ...fields,
  } as HookInput;
}

/** Variables a hook command gets besides the runner's secret-free base environment. */
export function hookEnv(event: HookEvent, task: Task): Record<string, string> {
  return {
    AGENT_DESK_HOOK_EVENT: event,
    AGENT_DESK_TASK_ID: task.id,
    AGENT_DESK_WORKSPACE: task.workspace,
    // Scripts written for Claude Code find the project folder here.
    CLAUDE_PROJECT_DIR: task.workspace,
  };
}
