import type { Task } from '../../../../electron/contract/index.js';

/**
 * A task's title as its page shows it: the whole goal when the title is only the goal's first
 * characters (the runtime cuts a goal at 80 for lists), so a long goal wraps in the heading
 * instead of ending mid-word; a title of its own stays as it is.
 */
export function taskPageTitle(task: Pick<Task, 'title' | 'plan'>): string {
  if (task.plan.kind !== 'goal') return task.title;
  const goal = task.plan.goal;
  return goal.length > task.title.length && goal.startsWith(task.title) ? goal : task.title;
}
