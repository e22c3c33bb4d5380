import { describe, expect, it } from 'vitest';
import { missing } from '../../support/requirements.js';
import { startServe } from '../../support/serveProcess.js';
import { openUi, requireBuiltUi, shot, useUiSession, WAIT } from './uiSession.js';

const skip = missing('chromium');
const ui = useUiSession(skip);

/** Picks an example in the New task view, runs it as it is, approves what it asks, and waits for it to end. */
async function runPickedExample(name: string, timeoutMs: number): Promise<{ state: string; reason: string }> {
  requireBuiltUi();
  const serve = await startServe(ui.home()); // the home's cleanup ends serve
  {
    const { page, problems } = await openUi(ui.browser, serve);
    await page.waitForSelector('[data-testid="state-empty"]', WAIT);
    await page.click('a[href="#/new"]');
    await page.getByTestId('mode-playbook').check();
    await page.getByTestId('example-picker').selectOption(name);
    expect(await page.getByTestId('playbook-yaml').inputValue()).toContain(`name: ${name}`);
    await page.getByTestId('create-task').click();
    const detail = page.getByTestId('task-detail');
    await detail.waitFor(WAIT);
    const end = Date.now() + timeoutMs;
    let state = '';
    while (Date.now() < end) {
      state = (await detail.getAttribute('data-task-state')) ?? '';
      if (['succeeded', 'failed', 'cancelled'].includes(state)) break;
      const dialog = page.getByRole('dialog');
      if (await dialog.isVisible()) {
        await page.getByTestId('approve').click();
        // Deletes and sends ask for a deliberate second key.
        if (
          await page
            .getByTestId('approve-armed')
            .isVisible()
            .catch(() => false)
        )
          await page.keyboard.press('Enter');
      }
      await page.waitForTimeout(200);
    }
    await shot(page, `example-${name}`);
    const reason = (await page.locator('[data-testid="task-detail"]').textContent()) ?? '';
    expect(problems).toEqual([]);
    return { state, reason };
  }
}

describe.skipIf(skip)('every example in the picker runs from the UI as it is', () => {
  it.each(['cleanup-old-logs', 'inventory-report', 'send-status-update'])(
    '%s succeeds',
    async (name) => {
      const { state, reason } = await runPickedExample(name, 60_000);
      expect(state, reason).toBe('succeeded');
      expect(reason).not.toMatch(/\n\s+at |node:internal|ERR_MODULE_NOT_FOUND/); // never a Node stack trace
    },
    120_000,
  );

  it.skipIf(missing('docker'))(
    'sandbox-form succeeds in a fresh container',
    async () => {
      const { state, reason } = await runPickedExample('sandbox-form', 240_000);
      expect(state, reason).toBe('succeeded');
    },
    300_000,
  );
});
