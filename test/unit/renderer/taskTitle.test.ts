import { describe, expect, it } from 'vitest';
import { TITLE_GOAL_LIMIT, taskPageTitle } from '../../../renderer/src/features/task-detail/taskTitle.js';

const goal =
  'Open the quarterly report in the desktop, compare the totals with last year and write a summary of the differences to summary.md';

describe("a task page's title", () => {
  it('a long goal is shown whole (it wraps), not cut mid-word at the 80 characters the list keeps', () => {
    expect(taskPageTitle({ title: goal.slice(0, 80), plan: { kind: 'goal', goal } })).toBe(goal);
  });

  it('a very long goal ends at a word with an ellipsis; one without spaces (中文) ends at the limit', () => {
    const long = `${goal} `.repeat(4).trim();
    const shown = taskPageTitle({ title: long.slice(0, 80), plan: { kind: 'goal', goal: long } });
    expect(shown.length).toBeLessThanOrEqual(TITLE_GOAL_LIMIT + 1);
    expect(shown.endsWith('…')).toBe(true);
    expect(long.startsWith(shown.slice(0, -1))).toBe(true);
    expect(long[shown.length - 1]).toBe(' '); // the cut falls between words
    const chinese = '整理旧日志'.repeat(60);
    expect(taskPageTitle({ title: chinese.slice(0, 80), plan: { kind: 'goal', goal: chinese } })).toBe(
      `${chinese.slice(0, TITLE_GOAL_LIMIT)}…`,
    );
  });

  it('a title of its own, and a playbook task, keep their title', () => {
    expect(taskPageTitle({ title: 'Quarterly summary', plan: { kind: 'goal', goal } })).toBe('Quarterly summary');
    expect(taskPageTitle({ title: 'order form', plan: { kind: 'playbook', source: 'name: order form\nsteps: []', baseDir: '/tmp' } })).toBe(
      'order form',
    );
  });
});
