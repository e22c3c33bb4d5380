import { describe, expect, it } from 'vitest';
import { missing } from '../../support/requirements.js';
import { startServe } from '../../support/serveProcess.js';
import { openUi, requireBuiltUi, useUiSession, WAIT } from './uiSession.js';

const skip = missing('chromium');
const ui = useUiSession(skip);

describe.skipIf(skip)('the Settings page', () => {
  it('says saved models, policy and MCP servers apply to the next task without a restart, in both languages, and settings.set answers when what it saved applies', async () => {
    requireBuiltUi();
    const serve = await startServe(ui.home());
    const { page, problems } = await openUi(ui.browser, serve);
    await page.waitForSelector('[data-testid="state-empty"]', WAIT);
    await page.click('a[href="#/settings"]');
    const note = page.getByTestId('settings-applies');
    await note.waitFor(WAIT);
    expect(await note.textContent()).toContain('apply to the next task');
    await page.getByTestId('locale-switch').selectOption('zh-CN');
    await page.waitForFunction(
      `document.querySelector('[data-testid="settings-applies"]')?.textContent.includes('无需重启')`,
      undefined,
      WAIT,
    );

    // What the page saves over RPC answers when it applies.
    const client = await serve.connect();
    try {
      const saved = await client.call('settings.set', { config: { policy: { rules: { allow: ['fs.delete'] } } } });
      expect(saved).toMatchObject({ appliesTo: 'next-task', restartNeeded: [] });
    } finally {
      await client.close();
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
