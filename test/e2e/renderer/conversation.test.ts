import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useLocalModel } from '../../support/cliSandbox.js';
import { ModelServer } from '../../support/modelServer.js';
import { pollUntil } from '../../support/poll.js';
import { missing } from '../../support/requirements.js';
import { startServe } from '../../support/serveProcess.js';
import { openUi, requireBuiltUi, shot, useUiSession, WAIT } from './uiSession.js';

const skip = missing('chromium');
const ui = useUiSession(skip);
const KEY = 'sk-e2e-conv-8f3a1c5e7b9d';
const GOAL = 'Write hello world into hello.txt';
const MESSAGE = 'Please keep it lowercase';
const PROPOSE = {
  toolCalls: [{ name: 'propose_checks', arguments: { checks: [{ type: 'file_exists', name: 'hello file', path: 'hello.txt' }] } }],
};

let server: ModelServer | undefined;
beforeAll(async () => {
  if (!skip) server = await new ModelServer().start();
});
afterAll(async () => {
  await server?.close();
});

async function openWithModel(): Promise<{ page: Page; problems: string[] }> {
  if (!server) throw new Error('not set up');
  requireBuiltUi();
  server.requests.length = 0;
  const cli = ui.home();
  await useLocalModel(cli, server.url, KEY);
  const serve = await startServe(cli);
  const opened = await openUi(ui.browser, serve);
  await opened.page.getByRole('link', { name: 'Tasks', exact: true }).waitFor(WAIT);
  return opened;
}

/** A goal typed into the composer the page opens with, started with Ctrl+Enter. */
async function typeGoal(page: Page, goal: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: 'New task' }).click();
  await page.getByRole('textbox', { name: /Goal/ }).fill(goal);
  await page.getByRole('textbox', { name: /Goal/ }).press('Control+Enter');
  await page.getByTestId('conversation').waitFor(WAIT);
}

/** The vertical position of an element, to check what the page shows first. */
const top = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())?.y ?? Number.NaN;

describe.skipIf(skip)(`the task as a conversation${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('a goal typed in the composer reaches its final answer; a message reaches the next model request', async () => {
    const { page, problems } = await openWithModel();
    server!.script('chat', PROPOSE);
    await typeGoal(page, GOAL);
    expect(await page.getByTestId('goal-bubble').textContent()).toContain(GOAL);
    await page.getByTestId('review-checks').waitFor(WAIT);

    // While the task waits for the check review, the person adds an instruction.
    await page.getByRole('textbox', { name: 'Message the task' }).fill(MESSAGE);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.locator('[data-testid="task-event"][data-kind="user.message"]', { hasText: MESSAGE }).waitFor(WAIT);

    server!.script(
      'chat',
      {
        text: 'I will write the file now.',
        toolCalls: [{ name: 'fs_write', arguments: { path: 'hello.txt', content: 'hello world' } }],
        usage: { input: 900, output: 60 },
      },
      { text: 'Wrote hello.txt in lowercase.', usage: { input: 1000, output: 10 } },
    );
    await page.getByRole('button', { name: 'Accept checks and continue' }).click();
    await page.locator('[data-testid="task-detail"][data-task-state="succeeded"]').waitFor(WAIT);
    expect(await page.getByTestId('answer').textContent()).toBe('Wrote hello.txt in lowercase.');

    // The message was in the first model request after it was sent, as the user's words.
    const afterMessage = server!.received('chat').slice(1);
    expect(afterMessage.length).toBeGreaterThan(0);
    expect(JSON.stringify(afterMessage[0]!.body.messages)).toContain(MESSAGE);

    // In order: the goal, the message, the model's words, the step card, the final answer.
    const order = await Promise.all([
      top(page, '[data-testid="goal-bubble"]'),
      top(page, '[data-testid="task-event"][data-kind="user.message"]'),
      top(page, '[data-testid="task-event"][data-kind="model.text"]'),
      top(page, '[data-testid="step-card"][data-tool="fs.write"]'),
      top(page, '[data-testid="answer"]'),
    ]);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // One source for the counters: the step card's tokens are inside the task's total.
    const usage = (await page.getByTestId('usage').textContent()) ?? '';
    expect(usage).toMatch(/^1 step · \d+ tokens · \$/);
    expect(await page.getByRole('button', { name: 'Run again' }).isVisible()).toBe(true);
    await shot(page, 'en-20-conversation');
    // A succeeded goal task is saved as a playbook (tasks.record), downloaded as YAML.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save as playbook' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.yaml$/);
    const saved = await readFile((await download.path())!, 'utf8');
    expect(saved).toContain('fs.write');
    expect(saved).toContain('hello.txt');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('Stop, Pause and Resume are at hand while the task runs, and Stop ends it', async () => {
    const { page, problems } = await openWithModel();
    server!.script('chat', { hang: true });
    await typeGoal(page, 'Think for a very long time');
    await page.locator('[data-testid="task-detail"]:is([data-task-state="planning"], [data-task-state="running"])').waitFor(WAIT);
    const toolbar = page.getByRole('toolbar', { name: 'Task controls' });
    for (const name of ['Stop', 'Pause', 'Resume']) expect(await toolbar.getByRole('button', { name }).isVisible()).toBe(true);
    await pollUntil('the model request to arrive', () => (server!.received('chat').length > 0 ? true : undefined));
    await toolbar.getByRole('button', { name: 'Stop' }).click();
    await page.locator('[data-testid="task-detail"][data-task-state="cancelled"]').waitFor(WAIT);
    expect(await page.getByRole('button', { name: 'Run again' }).isVisible()).toBe(true);
    // 简体中文: the same page from the catalog; model tokens are 词元, never 令牌.
    await page.getByTestId('locale-switch').selectOption('zh-CN');
    await page.getByRole('button', { name: '再次运行' }).waitFor(WAIT);
    expect(await page.getByTestId('usage').textContent()).toContain('词元');
    expect(await page.locator('main').textContent()).not.toContain('令牌');
    expect(await page.getByRole('textbox', { name: '给任务发消息' }).count()).toBe(0); // an ended task takes no messages
    await shot(page, 'zh-CN-20-task-cancelled');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the playbook tab runs a playbook picked from a file, no YAML pasted', async () => {
    const { page, problems } = await openWithModel();
    await page.getByRole('navigation').getByRole('link', { name: 'New task' }).click();
    await page.getByRole('radio', { name: 'Playbook' }).check();
    const yaml = 'name: from-a-file\nsteps:\n  - id: note\n    tool: fs.write\n    args: { path: note.txt, content: hi }\n';
    await page
      .getByLabel('Or open a playbook file')
      .setInputFiles({ name: 'from-a-file.yaml', mimeType: 'text/yaml', buffer: Buffer.from(yaml) });
    await page.getByRole('button', { name: 'Create and start' }).click();
    await page.locator('[data-testid="task-detail"][data-task-state="succeeded"]').waitFor(WAIT);
    expect(await page.getByTestId('goal-bubble').textContent()).toContain('from-a-file');
    expect(await page.locator('[data-testid="step-card"][data-tool="fs.write"]').count()).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
