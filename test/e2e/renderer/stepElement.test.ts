import { describe, expect, it } from 'vitest';
import type { ComputerActionResult, Step } from '../../../electron/contract/index.js';
import { missing } from '../../support/requirements.js';
import { configureDesktop } from '../../support/sandboxImage.js';
import { startServe, waitForTaskState } from '../../support/serveProcess.js';
import { openUi, requireBuiltUi, shot, useUiSession, WAIT } from './uiSession.js';

// The task page shows what a desktop step acted on: the resolved element's box over the step's
// screenshot, captioned by what found it, in English and 简体中文; a long goal wraps whole in the title.

const skip = missing('chromium') ?? missing('docker');
const ui = useUiSession(skip);

const PAGE = `<!doctype html><meta charset="utf-8"><title>Notes</title>
<button style="font-size: 28px; margin: 60px 0 0 300px" onclick="document.title = 'saved'">Save note</button>`;
const PLAYBOOK = `name: save the note
steps:
  - tool: sandbox.write_file
    args: { path: note.html, content: ${JSON.stringify(PAGE)} }
  - tool: sandbox.browser_open
    args: { url: "file:///home/agent/note.html" }
  - id: save
    tool: computer
    args: { action: click, target: { role: button, name: "Save note" } }
`;
const GOAL =
  'Open the quarterly report in the desktop, compare every total with last year, and write the differences to summary.md for the team';

describe.skipIf(skip)(`a desktop step on the task page${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('the screenshot outlines the element the click resolved, captioned in both languages; a long goal is the whole title', async () => {
    requireBuiltUi();
    const cli = ui.home();
    await configureDesktop(cli);
    const serve = await startServe(cli);
    const client = await serve.connect();
    const task = await client.call('tasks.create', { playbook: { source: PLAYBOOK } });
    const done = await waitForTaskState(client, task.id, ['succeeded', 'failed'], 240_000);
    expect(done.state, done.stateReason).toBe('succeeded');
    const { steps } = (await client.call('tasks.get', { taskId: task.id })) as { steps: Step[] };
    const output = steps.find((s) => s.tool === 'computer')!.output as ComputerActionResult;
    expect(output.target).toMatchObject({ resolver: 'accessibility', name: 'Save note' });
    const goal = await client.call('tasks.create', { goal: GOAL });
    await client.close();

    const { page, problems } = await openUi(ui.browser, serve);
    await page.goto(`${serve.info.httpUrl}/#/task/${task.id}`);
    const card = page.locator('[data-testid="step-card"][data-tool="computer"]');
    await card.locator('[data-testid="element-box"]').waitFor(WAIT);
    // The box lies where the element is on the screenshot: its share of the image is the element's share of the screen.
    const image = (await card.locator('.shot-frame img').boundingBox())!;
    const box = (await card.getByTestId('element-box').boundingBox())!;
    const { target, screen } = output as Required<Pick<ComputerActionResult, 'target' | 'screen'>>;
    expect(Math.abs((box.x - image.x) / image.width - target.box.x / screen.width)).toBeLessThan(0.01);
    expect(Math.abs((box.y - image.y) / image.height - target.box.y / screen.height)).toBeLessThan(0.01);
    expect(Math.abs(box.width / image.width - target.box.width / screen.width)).toBeLessThan(0.01);
    expect(await card.getByTestId('element-caption').innerText()).toMatch(
      /^Acted on \(found in the accessibility tree\): [a-z ]*button 'Save note'$/,
    );
    await page.getByTestId('locale-switch').selectOption('zh-CN');
    expect(await card.getByTestId('element-caption').innerText()).toMatch(/^操作的元素（由无障碍树找到）： ?[a-z ]*button 'Save note'$/);
    await shot(page, 'step-element-zh');

    await page.goto(`${serve.info.httpUrl}/#/task/${goal.id}`);
    const title = page.locator('h1.task-title');
    await title.waitFor(WAIT);
    expect(await title.innerText()).toContain(GOAL);
    const fits = await title.evaluate((h) => h.scrollWidth <= h.clientWidth && h.getClientRects().length > 0);
    expect(fits, 'the title wraps inside the page').toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 420_000);
});
