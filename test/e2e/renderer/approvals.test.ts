import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { missing } from '../../support/requirements.js';
import { startServe } from '../../support/serveProcess.js';
import { TIDY } from './taskStates.js';
import { openUi, requireBuiltUi, shot, useUiSession, WAIT } from './uiSession.js';

const skip = missing('chromium');
const ui = useUiSession(skip);

/** True when the focused element is inside the open dialog. */
const focusInDialog = (page: Page) => page.evaluate<boolean>(`Boolean(document.activeElement?.closest('[role="dialog"]'))`);
/** Run again, and wait until the page shows the new task (the old one is succeeded too). */
async function runAgain(page: Page): Promise<void> {
  const before = page.url();
  await page.getByRole('button', { name: 'Run again' }).click();
  await page.waitForURL((url) => url.href !== before, WAIT);
}
const succeeded = (page: Page) => page.locator('[data-testid="task-detail"][data-task-state="succeeded"]').waitFor(WAIT);

describe.skipIf(skip)(`approvals in context${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('focus moves into the dialog, stays there and returns; a delete needs a second key; always → revoked → asked again', async () => {
    requireBuiltUi();
    const serve = await startServe(ui.home());
    const { page, problems } = await openUi(ui.browser, serve);
    const client = await serve.connect();
    try {
      await page.getByRole('navigation').getByRole('link', { name: 'New task' }).click();
      await page.getByTestId('mode-playbook').check();
      await page.getByRole('button', { name: 'Write a playbook in YAML instead' }).click();
      await page.getByRole('textbox', { name: 'Playbook YAML' }).fill(TIDY);
      await page.getByRole('button', { name: 'Create and start' }).click();

      // The prompt names its task, and the tab's title counts what waits.
      const dialog = page.getByRole('dialog');
      await dialog.waitFor(WAIT);
      expect(await dialog.getByTestId('approval-task').textContent()).toContain('tidy-log');
      expect(await page.title()).toBe('(1) Agent Desk');
      expect(await focusInDialog(page)).toBe(true);

      // Closed and reopened from the conversation: focus goes back to the button that opened it.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached', ...WAIT });
      const review = page.getByTestId('conversation').getByRole('button', { name: 'Review' });
      await review.click();
      await dialog.waitFor(WAIT);
      expect(await focusInDialog(page)).toBe(true);
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
        expect(await focusInDialog(page), `after Tab #${i + 1}`).toBe(true);
      }
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached', ...WAIT });
      expect(await page.evaluate<string>('document.activeElement?.textContent')).toBe('Review');

      // One stray A does not approve a delete: it arms, another key disarms, A then Enter approves.
      await review.click();
      await dialog.waitFor(WAIT);
      await dialog.getByRole('radio', { name: 'Always' }).check();
      await dialog.focus();
      await page.keyboard.press('a');
      await page.getByTestId('approve-armed').waitFor(WAIT);
      await page.keyboard.press('x');
      await page.getByTestId('approve-armed').waitFor({ state: 'detached', ...WAIT });
      expect((await client.call('approvals.list', { status: 'pending' })).approvals).toHaveLength(1);
      await shot(page, 'en-21-approval-in-context');
      await page.keyboard.press('a');
      await page.getByTestId('approve-armed').waitFor(WAIT);
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'detached', ...WAIT });
      await succeeded(page);
      expect(await page.title()).toBe('Agent Desk');

      // Remembered: the same delete in a new run is not asked.
      await runAgain(page);
      await succeeded(page);
      expect(await page.locator('[data-testid="step-card"][data-tool="fs.delete"]').getByTestId('step-policy').textContent()).toContain(
        'remembered approval',
      );

      // Revoked on the Grants page, then asked again.
      await page.getByRole('navigation').getByRole('link', { name: 'Grants' }).click();
      const row = page.getByTestId('grants').getByRole('row', { name: /fs\.delete/ });
      expect(await row.textContent()).toContain('Always');
      await shot(page, 'en-22-grants');
      await row.getByRole('button', { name: 'Revoke the grant for fs.delete' }).click();
      await page.getByText('No remembered approvals.').waitFor(WAIT);
      expect((await client.call('grants.list', {})).grants).toEqual([]);
      await page.goBack();
      await runAgain(page);
      await dialog.waitFor(WAIT);
      expect(await dialog.textContent()).toContain('fs.delete');
    } finally {
      await client.close();
    }
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the dialog, the conversation and the Grants page in 简体中文', async () => {
    requireBuiltUi();
    const serve = await startServe(ui.home());
    const { page, problems } = await openUi(ui.browser, serve);
    await page.getByTestId('locale-switch').selectOption('zh-CN');
    await page.getByRole('navigation').getByRole('link', { name: '新建任务' }).click();
    await page.getByTestId('mode-playbook').check();
    await page.getByRole('button', { name: '改为用 YAML 编写剧本' }).click();
    await page.getByTestId('playbook-yaml').fill(TIDY);
    await page.getByTestId('create-task').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor(WAIT);
    expect(await dialog.getByTestId('approval-task').textContent()).toContain('任务：tidy-log');
    for (const name of ['仅此一次', '本任务内', '始终']) expect(await dialog.getByRole('radio', { name }).count()).toBe(1);
    await page.keyboard.press('a');
    expect(await page.getByTestId('approve-armed').textContent()).toBe('按回车键批准，按其他任意键取消。');
    await shot(page, 'zh-CN-21-approval-in-context');
    await page.keyboard.press('Enter');
    await succeeded(page);
    const toolbar = page.getByRole('toolbar', { name: '任务控制' });
    expect(await toolbar.getByRole('button', { name: '再次运行' }).count()).toBe(1);
    await page.getByRole('navigation').getByRole('link', { name: '授权' }).click();
    await page.getByText('没有已记住的审批。').waitFor(WAIT);
    await shot(page, 'zh-CN-22-grants');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
