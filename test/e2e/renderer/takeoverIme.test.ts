import { beforeAll, describe, expect, it } from 'vitest';
import { missing } from '../../support/requirements.js';
import { configureDesktop, desktopImage, notePagePlaybook } from '../../support/sandboxImage.js';
import { startServe, waitForTaskState } from '../../support/serveProcess.js';
import { openUi, requireBuiltUi, useUiSession, WAIT } from './uiSession.js';

const skip = missing('chromium') ?? missing('docker');
const ui = useUiSession(skip);
const SLOW = { timeout: 180_000 };
// Typed keys, then text an input method composed (Chinese), then pasted text: all one note.
const KEYED = 'hi ';
const COMPOSED = '你好';
const PASTED = ' pasted 世界';
const NOTE = KEYED + COMPOSED + PASTED;
const ORDER = notePagePlaybook({ name: 'ui-takeover-ime', check: "the person's note was saved", saved: NOTE });

let image: string | undefined;
beforeAll(async () => {
  if (skip) return;
  image = await desktopImage();
}, 600_000);

describe.skipIf(skip)(`takeover input from an input method and a paste${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('composed Chinese and pasted text reach the desktop, in order, and the container saves them', async () => {
    if (!image) throw new Error('not set up');
    requireBuiltUi();
    const cli = ui.home();
    await configureDesktop(cli, { liveFps: 2 });
    const serve = await startServe(cli);
    const { page, problems } = await openUi(ui.browser, serve);
    await page.waitForSelector('[data-testid="state-empty"]', WAIT);
    await page.click('a[href="#/new"]');
    await page.getByTestId('mode-playbook').check();
    await page.getByTestId('write-yaml').click();
    await page.getByTestId('playbook-yaml').fill(ORDER);
    await page.getByTestId('create-task').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor(SLOW);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', ...WAIT });

    const screen = page.getByTestId('live-screen');
    await screen.getByTestId('screen-image').waitFor(WAIT);
    await page.getByTestId('takeover').click();
    await page.locator('[data-testid="task-detail"][data-task-state="paused"]').waitFor(SLOW);
    const box = (await screen.getByTestId('screen-image').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.2);
    await page.keyboard.type(KEYED);
    // An IME: a composition in progress (its keys belong to the IME), then the committed text.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.imeSetComposition', { text: 'ni hao', selectionStart: 6, selectionEnd: 6 });
    await cdp.send('Input.insertText', { text: COMPOSED });
    // A paste of the person's clipboard.
    await page.evaluate(`(() => {
      const data = new DataTransfer();
      data.setData('text/plain', ${JSON.stringify(PASTED)});
      document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    })()`);
    await page.keyboard.press('Tab'); // sends what was typed first

    const client = await serve.connect();
    try {
      const taskId = (await client.call('tasks.list', {})).tasks[0]!.id;
      const typedText = async () =>
        (await client.call('tasks.get', { taskId })).steps
          .filter((s) => s.tool === 'gui.user_action' && (s.args as { action: string }).action === 'type')
          .map((s) => (s.args as { text: string }).text)
          .join('');
      await expect.poll(typedText, SLOW).toBe(NOTE);

      await page.getByTestId('release').click();
      await page.locator('[data-testid="task-detail"][data-task-state="waiting_approval"]').waitFor(SLOW);
      await page.getByTestId('approval-banner').click();
      await dialog.waitFor(WAIT);
      await page.keyboard.press('a');
      await page.waitForFunction(`!document.querySelector('[role="dialog"]') || document.querySelector('[data-testid="approve-armed"]')`);
      if (await page.getByTestId('approve-armed').count()) await page.keyboard.press('Enter');
      const done = await waitForTaskState(client, taskId, ['succeeded', 'failed'], 180_000);
      expect(done.state, done.stateReason).toBe('succeeded'); // the container's check read the saved note
    } finally {
      await client.close();
    }
    expect(problems).toEqual([]);
    await page.context().close();
  }, 600_000);
});
