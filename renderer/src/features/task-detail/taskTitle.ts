import type { Task } from '../../../../electron/contract/index.js';

/** The most of a goal the heading shows; the conversation below shows all of it. */
export const TITLE_GOAL_LIMIT = 240;

/** A long text cut at its last space before `limit` (never inside a word), with an ellipsis; text without spaces (中文) is cut at `limit`. */
function cutAtWord(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const space = text.lastIndexOf(' ', limit);
  return `${(space > limit / 2 ? text.slice(0, space) : text.slice(0, limit)).trimEnd()}…`;
}

/**
 * A task's title as its page shows it: the goal when the title is only the goal's first
 * characters (the runtime cuts a goal at 80 for lists), so a long goal wraps in the heading
 * instead of ending mid-word (a very long one ends at a word, with an ellipsis); a title of its
 * own stays as it is.
 */
export function taskPageTitle(task: Pick<Task, 'title' | 'plan'>): string {
  if (task.plan.kind !== 'goal') return task.title;
  const goal = task.plan.goal;
  return goal.length > task.title.length && goal.startsWith(task.title) ? cutAtWord(goal, TITLE_GOAL_LIMIT) : task.title;
}
