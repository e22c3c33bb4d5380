import { describe, expect, it } from 'vitest';
import { taskPageTitle } from '../../../renderer/src/features/task-detail/taskTitle.js';

const goal =
  'Open the quarterly report in the desktop, compare the totals with last year and write a summary of the differences to summary.md';

describe("a task page's title", () => {
  it('a long goal is shown whole (it wraps), not cut mid-word at the 80 characters the list keeps', () => {
    expect(taskPageTitle({ title: goal.slice(0, 80), plan: { kind: 'goal', goal } })).toBe(goal);
  });

  it('a title of its own, and a playbook task, keep their title', () => {
    expect(taskPageTitle({ title: 'Quarterly summary', plan: { kind: 'goal', goal } })).toBe('Quarterly summary');
    expect(taskPageTitle({ title: 'order form', plan: { kind: 'playbook', source: 'name: order form\nsteps: []', baseDir: '/tmp' } })).toBe(
      'order form',
    );
  });
});
