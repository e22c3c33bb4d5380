import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pollUntil } from '../../support/poll.js';
import { missing } from '../../support/requirements.js';
import { startServe, waitForTaskState } from '../../support/serveProcess.js';
import { referenceServer } from '../../integration/capabilities/mcp/referenceServers.js';
import { openUi, requireBuiltUi, shot, useUiSession, WAIT } from './uiSession.js';

const skip = missing('chromium');
const ui = useUiSession(skip);
const TOOL = 'mcp__everything__trigger-elicitation-request';
const ELICIT = `name: ask\nsteps:\n  - tool: ${TOOL}\n    args: {}\n`;

async function answerFlow(locale: 'en' | 'zh-CN', text: { tasks: string; send: string }): Promise<void> {
  requireBuiltUi();
  const cli = ui.home();
  // The real reference server, which asks its question through MCP elicitation.
  const server = { transport: 'stdio', command: process.execPath, args: [referenceServer('everything')], timeoutMs: 120_000 };
  writeFileSync(path.join(cli.home, 'mcp.json'), JSON.stringify({ servers: { everything: server } }));
  const serve = await startServe(cli);
  const client = await serve.connect();
  try {
    await pollUntil(
      'the elicitation tool to be registered',
      async () => (await client.call('tools.catalog', {})).tools.some((t) => t.name === TOOL) || undefined,
    );
    const { page, problems } = await openUi(ui.browser, serve);
    await page.waitForSelector('[data-testid="state-empty"]', WAIT);
    await page.getByTestId('locale-switch').selectOption(locale);
    await page.getByRole('link', { name: text.tasks, exact: true }).waitFor(WAIT);

    await page.click('a[href="#/new"]');
    await page.getByTestId('mode-playbook').check();
    await page.getByTestId('write-yaml').click();
    await page.getByTestId('playbook-yaml').fill(ELICIT);
    await page.getByTestId('create-task').click();
    await page.getByRole('dialog').waitFor(WAIT); // the tool is a write: approved first
    await page.keyboard.press('a');

    const form = page.getByTestId('question');
    await form.waitFor(WAIT);
    expect(await form.textContent()).toContain('MCP server');
    await form.locator('[data-answer-field="name"] input').fill('Ada Lovelace');
    const email = form.locator('[data-answer-field="email"] input');
    if (await email.count()) await email.fill('ada@example.com');
    await shot(page, `${locale}-17-question`);
    expect(await page.getByTestId('answer-accept').textContent()).toBe(text.send);
    await page.getByTestId('answer-accept').click();
    await form.waitFor({ state: 'detached', ...WAIT }).catch(async (error: Error) => {
      throw new Error(`${error.message}\nthe form still shows: ${await form.textContent()}`);
    });

    await page.locator('[data-testid="task-detail"][data-task-state="succeeded"]').waitFor(WAIT);
    const [task] = (await client.call('tasks.list', {})).tasks;
    const done = await waitForTaskState(client, task!.id, ['succeeded']);
    const { steps } = await client.call('tasks.get', { taskId: done.id });
    expect(JSON.stringify(steps[0]?.output)).toContain('Ada Lovelace');
    expect(problems).toEqual([]);
    await page.context().close();
  } finally {
    await client.close();
  }
}

describe.skipIf(skip)(`a tool's question answered in the web UI${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('an MCP elicitation becomes a form; the answer goes back and the task succeeds (English)', async () => {
    await answerFlow('en', { tasks: 'Tasks', send: 'Send answer' });
  });

  it('the same in 简体中文', async () => {
    await answerFlow('zh-CN', { tasks: '任务', send: '发送回答' });
  });
});
