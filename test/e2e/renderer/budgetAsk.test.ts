import { describe, expect, it } from 'vitest';
import type { Task } from '../../../electron/contract/index.js';
import { pollUntil } from '../../support/poll.js';
import { missing } from '../../support/requirements.js';
import { startServe } from '../../support/serveProcess.js';
import { openUi, requireBuiltUi, shot, useUiSession, WAIT } from './uiSession.js';

const skip = missing('chromium');
const ui = useUiSession(skip);

const TWO_NOTES = `name: two-notes
steps:
  - tool: fs.write
    args: { path: a.txt, content: one }
  - tool: fs.write
    args: { path: b.txt, content: two }
`;

describe.skipIf(skip)(`a budget that pauses and asks, in the task page${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('a task at its step budget waits with the question; Raise lets it finish, and the page says so in 简体中文 too', async () => {
    requireBuiltUi();
    const serve = await startServe(ui.home());
    const client = await serve.connect();
    try {
      const created = (await client.call('tasks.create', { playbook: { source: TWO_NOTES }, budget: { maxSteps: 1 } })) as Task;
      const waiting = await pollUntil('the task stops at its budget', async () => {
        const { task } = await client.call('tasks.get', { taskId: created.id });
        return task.state === 'waiting_user' ? task : undefined;
      });
      expect(waiting.stateReason).toMatch(/this task has spent 1 steps of 1 steps; raise by 1 steps\?/);

      const { page, problems } = await openUi(ui.browser, serve);
      await page.goto(`${serve.info.httpUrl}/#/task/${created.id}`);
      await page.getByTestId('budget-question').waitFor(WAIT);
      await page.getByTestId('locale-switch').selectOption('zh-CN');
      expect(await page.getByTestId('budget-raise').textContent()).toBe('提高 1 步 并继续');
      await shot(page, 'budget/zh-raise');
      await page.getByTestId('locale-switch').selectOption('en');
      expect(await page.getByTestId('budget-raise').textContent()).toBe('Raise by 1 steps and go on');
      await page.getByTestId('budget-raise').click();
      await page.locator('[data-testid="task-detail"][data-task-state="succeeded"]').waitFor(WAIT);
      expect(await page.getByTestId('budget-question').count()).toBe(0);
      const { task } = await client.call('tasks.get', { taskId: created.id });
      expect(task).toMatchObject({ state: 'succeeded', budget: { maxSteps: 2 }, usage: { steps: 2 } });
      expect(problems).toEqual([]);
      await page.context().close();
    } finally {
      await client.close();
    }
  }, 120_000);
});
