import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { missing } from '../../support/requirements.js';
import { startServe, waitForTaskState } from '../../support/serveProcess.js';
import { englishIn } from './englishText.js';
import { pendingApprovalOf, TIDY } from './taskStates.js';
import { openUi, requireBuiltUi, useUiSession, WAIT } from './uiSession.js';

const skip = missing('chromium');
const ui = useUiSession(skip);

describe.skipIf(skip)(`the 简体中文 pass catches English${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('a reason stored before codes shows its English, and the pass reports it; split sentences and placeholders count, code does not', async () => {
    requireBuiltUi();
    const home = ui.home();
    const serve = await startServe(home);
    const client = await serve.connect();
    const { page, problems } = await openUi(ui.browser, serve);
    try {
      const task = await client.call('tasks.create', { playbook: { source: TIDY } });
      await pendingApprovalOf(client, task.id);
      await client.call('tasks.cancel', { taskId: task.id });
      await waitForTaskState(client, task.id, ['cancelled']);
      // A row written by an older version: the English reason, no code.
      const db = new Database(path.join(home.home, 'agent-desk.db'));
      db.prepare('UPDATE tasks SET state_reason_text = NULL WHERE id = ?').run(task.id);
      db.close();

      await page.getByTestId('locale-switch').selectOption('zh-CN');
      await page.evaluate(`window.location.hash = ${JSON.stringify(`#/task/${task.id}`)}`);
      const reason = page.getByTestId('task-detail').locator('> .reason');
      // The view first shows the task as its live event left it (with the code) and the stored row
      // once `tasks.get` answers; a busy gateway answers after the first look.
      await expect.poll(() => reason.textContent(), WAIT).toBe('原因：cancelled by the user');
      expect(await englishIn(page)).toEqual(['cancelled by the user']);

      // The pass reads a block's text as one: a sentence split over inline elements is caught,
      // so is a placeholder; words inside code (tool output, names) are not sentences to translate.
      await page.evaluate(`(() => {
        document.querySelector('[data-testid="task-detail"] > .reason').remove();
        const main = document.querySelector('main');
        main.insertAdjacentHTML('beforeend', '<p>删除 <b>old</b> <i>files</i></p><input placeholder="Type a goal">');
        main.insertAdjacentHTML('beforeend', '<p>错误：<code>cannot read nowhere.txt: it does not exist</code></p>');
      })()`);
      expect(await englishIn(page)).toEqual(['old files', 'Type a goal']);
      expect(problems).toEqual([]);
    } finally {
      await client.close();
      await page.context().close();
    }
  }, 120_000);
});
