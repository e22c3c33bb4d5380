import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useLocalModel } from '../../support/cliSandbox.js';
import { ModelServer } from '../../support/modelServer.js';
import { missing } from '../../support/requirements.js';
import { startServe, waitForTaskState } from '../../support/serveProcess.js';
import { openUi, requireBuiltUi, shot, useUiSession, WAIT } from './uiSession.js';

const skip = missing('chromium');
const ui = useUiSession(skip);
const KEY = 'sk-e2e-ui-4d2c9a7f1b3e5d6c';
const PROPOSED = { type: 'file_contains' as const, name: 'greeting', path: 'hello.txt', text: 'hello world' };
const WRITE_THEN_DONE = [
  { toolCalls: [{ name: 'fs_write', arguments: { path: 'hello.txt', content: 'hello world' } }], usage: { input: 900, output: 60 } },
  { text: 'Wrote hello.txt.', usage: { input: 1000, output: 10, cached: 800 } },
];

let server: ModelServer | undefined;
beforeAll(async () => {
  if (skip) return;
  server = await new ModelServer().start();
});
afterAll(async () => {
  await server?.close();
});

async function reviewFlow(locale: 'en' | 'zh-CN', text: { tasks: string; accept: string }): Promise<void> {
  if (!server) throw new Error('not set up');
  requireBuiltUi();
  server.requests.length = 0;
  const cli = ui.home();
  await useLocalModel(cli, server.url, KEY);
  const serve = await startServe(cli);
  const { page, problems } = await openUi(ui.browser, serve);
  await page.waitForSelector('[data-testid="state-empty"]', WAIT);
  await page.getByTestId('locale-switch').selectOption(locale);
  await page.getByRole('link', { name: text.tasks, exact: true }).waitFor(WAIT);

  // A goal with no checks: the planner proposes them and the task waits for the person's review.
  server.script('chat', { toolCalls: [{ name: 'propose_checks', arguments: { checks: [PROPOSED] } }], usage: { input: 200, output: 30 } });
  await page.click('a[href="#/new"]');
  await page.getByTestId('mode-goal').check();
  await page.getByTestId('goal').fill('Write hello world into hello.txt');
  await page.getByTestId('create-task').click();
  const review = page.getByTestId('review-checks');
  await review.getByTestId('check-draft').waitFor(WAIT);
  expect(await review.locator('[data-field="path"]').inputValue()).toBe('hello.txt');
  expect(await review.locator('[data-field="text"]').inputValue()).toBe('hello world');
  // The person renames the check before accepting it: the task runs against the edited version.
  await review.getByTestId('check-draft').locator('input').first().fill('greeting, reviewed');
  await shot(page, `${locale}-15-review-checks`);
  expect(await review.getByTestId('accept-checks').textContent()).toBe(text.accept);

  server.script('chat', ...WRITE_THEN_DONE);
  await review.getByTestId('accept-checks').click();
  await page.locator('[data-testid="task-detail"][data-task-state="succeeded"]').waitFor(WAIT);
  expect(await page.getByTestId('checks').textContent()).toContain('✓ greeting, reviewed');
  expect(await page.getByTestId('answer').textContent()).toBe('Wrote hello.txt.'); // the model's final answer
  // The model-chosen step carries the tokens and cost of the call that chose it.
  const write = page.locator('[data-testid="step-card"][data-tool="fs.write"]');
  expect(Number(await write.getByTestId('step-tokens').textContent())).toBeGreaterThan(0);
  expect(await write.getByTestId('step-cost').textContent()).toMatch(/^\$0\.\d+$/);
  await shot(page, `${locale}-16-goal-succeeded`);

  const client = await serve.connect();
  try {
    const [task] = (await client.call('tasks.list', {})).tasks;
    const done = await waitForTaskState(client, task!.id, ['succeeded']);
    expect(done.plan).toMatchObject({ kind: 'goal', acceptance: [{ ...PROPOSED, name: 'greeting, reviewed' }] });
  } finally {
    await client.close();
  }
  // The key went to the model server only, never to the page.
  expect(await page.content()).not.toContain(KEY);
  expect(problems).toEqual([]);
  await page.context().close();
}

describe.skipIf(skip)(`goal tasks: proposed checks reviewed in the web UI${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('proposal → edit → accept → the task succeeds on the reviewed checks (English)', async () => {
    await reviewFlow('en', { tasks: 'Tasks', accept: 'Accept checks and continue' });
  });

  it('the same review in 简体中文', async () => {
    await reviewFlow('zh-CN', { tasks: '任务', accept: '接受检查并继续' });
  });
});
