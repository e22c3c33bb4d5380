import { beforeAll, describe, expect, it } from 'vitest';
import { missing } from '../../support/requirements.js';
import { configureDesktop, desktopImage, notePagePlaybook } from '../../support/sandboxImage.js';
import { startServe, waitForTaskState } from '../../support/serveProcess.js';
import { openUi, requireBuiltUi, shot, useUiSession, WAIT } from './uiSession.js';

const skip = missing('chromium') ?? missing('docker');
const ui = useUiSession(skip);
/** A desktop container starts, a page opens in it, a click is gated: minutes on a loaded 2-CPU box. */
const SLOW = { timeout: 180_000 };
const TYPED = 'typed by a person';

// The agent focuses the note field, then wants to click "Place order" (gated by an approval).
// Meanwhile the person takes over in the page, types the note, and releases.
const ORDER = notePagePlaybook({ name: 'ui-takeover', check: "the person's note was saved", saved: TYPED });

let image: string | undefined;
beforeAll(async () => {
  if (skip) return;
  image = await desktopImage();
}, 600_000);

describe.skipIf(skip)(`live screen and takeover in the web UI${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('shows the marked click target, streams the desktop, and a person takes over, types and releases', async () => {
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

    // The gated click: the prompt shows the screenshot with its target marked.
    const dialog = page.getByRole('dialog');
    await dialog.waitFor(SLOW);
    await dialog.locator('figure img[src^="data:image/"]').waitFor(WAIT);
    await shot(page, 'en-12-approval-click-target');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', ...WAIT });

    const screen = page.getByTestId('live-screen');
    await screen.getByTestId('screen-image').waitFor(WAIT);
    await shot(page, 'en-13-live-screen');

    await page.getByTestId('takeover').click();
    await page.locator('[data-testid="task-detail"][data-task-state="paused"]').waitFor(SLOW);
    expect(await screen.getAttribute('data-taken-over')).toBe('true');
    // A click on the note field (top of the page), then typing: both go to the desktop as user steps.
    const box = (await screen.getByTestId('screen-image').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.2);
    await page.keyboard.type(TYPED);
    await page.keyboard.press('Tab'); // a named key sends what was typed first
    const userSteps = page.locator('[data-testid="step-card"][data-tool="gui.user_action"][data-step-status="completed"]');
    await expect.poll(() => userSteps.count(), SLOW).toBeGreaterThanOrEqual(3);
    await shot(page, 'en-14-takeover');

    const client = await serve.connect();
    try {
      const taskId = (await client.call('tasks.list', {})).tasks[0]!.id;
      const typed = (await client.call('tasks.get', { taskId })).steps
        .filter((s) => s.tool === 'gui.user_action')
        .map((s) => s.args as { action: string; text?: string; keys?: string[] });
      expect(typed[0]).toMatchObject({ action: 'click' });
      expect(
        typed
          .filter((a) => a.action === 'type')
          .map((a) => a.text)
          .join(''),
      ).toBe(TYPED);
      expect(typed.at(-1)).toEqual({ action: 'key', keys: ['tab'] });

      // Released: the agent resumes at its gated click, approved from the keyboard, which saves the note.
      await page.getByTestId('release').click();
      await page.locator('[data-testid="task-detail"][data-task-state="waiting_approval"]').waitFor(SLOW);
      await page.getByTestId('approval-banner').click(); // the prompt closed earlier reopens from the banner
      await dialog.waitFor(WAIT);
      await page.keyboard.press('a');
      // A payment-like click takes a second key: A arms it, Enter confirms.
      await page.waitForFunction(`!document.querySelector('[role="dialog"]') || document.querySelector('[data-testid="approve-armed"]')`);
      if (await page.getByTestId('approve-armed').count()) await page.keyboard.press('Enter');
      const done = await waitForTaskState(client, taskId, ['succeeded', 'failed'], 180_000);
      expect(done.state, done.stateReason).toBe('succeeded');
    } finally {
      await client.close();
    }
    await page.locator('[data-testid="task-detail"][data-task-state="succeeded"]').waitFor(WAIT);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 600_000);
});
