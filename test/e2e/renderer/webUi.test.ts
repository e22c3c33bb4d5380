import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { missing } from '../../support/requirements.js';
import { startServe, type ServeProcess } from '../../support/serveProcess.js';
import { openUi as openUiIn, requireBuiltUi, shot, useUiSession, WAIT } from './uiSession.js';

const skip = missing('chromium');
const ui = useUiSession(skip);

function openUi(serve: ServeProcess) {
  return openUiIn(ui.browser, serve);
}

/** The whole approval flow in one locale, with a screenshot of each view. */
async function approvalFlow(locale: 'en' | 'zh-CN', theme: 'light' | 'dark', text: { tasks: string; approve: string; succeeded: string }) {
  requireBuiltUi();
  const cli = ui.home();
  const serve = await startServe(cli);
  const { page, problems } = await openUi(serve);

  // The token moved out of the address bar into sessionStorage.
  await page.waitForSelector('[data-testid="state-empty"]', WAIT);
  expect(page.url()).not.toContain('token=');
  await page.getByTestId('locale-switch').selectOption(locale);
  await page.getByRole('link', { name: text.tasks, exact: true }).waitFor(WAIT);
  if (theme === 'dark') {
    await page.getByTestId('theme-switch').click();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
  }
  expect(await page.locator('html').getAttribute('lang')).toBe(locale);
  await shot(page, `${locale}-1-tasks-empty`);

  await page.click('a[href="#/new"]');
  await page.getByTestId('mode-playbook').check();
  await page.getByTestId('example-picker').selectOption('cleanup-old-logs');
  expect(await page.getByTestId('playbook-yaml').inputValue()).toContain('name: cleanup-old-logs');
  await shot(page, `${locale}-2-new-task`);
  await page.getByTestId('create-task').click();

  // Steps stream in, then the delete step's approval prompt pops up with its preview.
  await page.waitForSelector('[data-testid="step-card"][data-tool="fs.write"][data-step-status="completed"]', WAIT);
  const dialog = page.getByRole('dialog');
  await dialog.waitFor(WAIT);
  expect(await dialog.textContent()).toContain('fs.delete');
  expect(await page.getByTestId('approval-preview').textContent()).toContain('logs/app-2026-10.log');
  expect(await page.getByTestId('approve').textContent()).toBe(text.approve);
  await shot(page, `${locale}-3-approval`);

  // A delete is not approved by one stray key: A arms it, Enter confirms.
  await page.keyboard.press('a');
  await page.getByTestId('approve-armed').waitFor(WAIT);
  expect(await dialog.isVisible()).toBe(true);
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'detached', ...WAIT });
  await page.waitForSelector('[data-testid="task-detail"][data-task-state="succeeded"]', WAIT);
  expect(await page.locator('[data-testid="task-detail"] h1 .badge').textContent()).toBe(text.succeeded);
  expect(await page.locator('[data-testid="step-card"]').count()).toBe(4);
  await shot(page, `${locale}-4-task-succeeded`);

  await page.getByTestId('open-trace').click();
  await page.waitForSelector('[data-testid="trace-view"] tr[data-event-type="approval.resolved"]', WAIT);
  await shot(page, `${locale}-5-trace`);
  // Step-through replay: two steps back shows two events fewer, the last one marked current.
  const total = await page.locator('[data-testid="trace-view"] tbody tr').count();
  await page.getByTestId('trace-prev').click();
  await page.getByTestId('trace-prev').click();
  expect(await page.locator('[data-testid="trace-view"] tbody tr').count()).toBe(total - 2);
  expect(await page.locator('[data-testid="trace-view"] tbody tr.current').count()).toBe(1);
  await page.getByTestId('trace-next').click();
  expect(await page.locator('[data-testid="trace-view"] tbody tr').count()).toBe(total - 1);
  await shot(page, `${locale}-5b-trace-replay`);
  const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.getByTestId('export-trace').click()]);
  const exported = JSON.parse(readFileSync((await download.path()) ?? '', 'utf8')) as { events: { type: string }[] };
  expect(exported.events.map((e) => e.type)).toEqual(
    expect.arrayContaining(['task.created', 'approval.requested', 'approval.resolved', 'check.result']),
  );

  await page.click('a[href="#/tasks"]');
  await page.waitForSelector('[data-testid="task-list"] .badge-succeeded', WAIT);
  await shot(page, `${locale}-6-tasks`);
  expect(problems).toEqual([]);
  await page.context().close();
}

describe.skipIf(skip)(`web UI against agent-desk serve${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('creates a task from a playbook, approves its delete with the keyboard and exports the trace (English)', async () => {
    await approvalFlow('en', 'light', { tasks: 'Tasks', approve: 'Approve (A)', succeeded: 'Succeeded' });
  });

  it('runs the same flow in 简体中文 with the dark theme', async () => {
    await approvalFlow('zh-CN', 'dark', { tasks: '任务', approve: '批准 (A)', succeeded: '已成功' });
  });

  it('D asks for a reason and Enter denies with it', async () => {
    const cli = ui.home();
    const serve = await startServe(cli);
    const { page, problems } = await openUi(serve);
    await page.waitForSelector('[data-testid="state-empty"]', WAIT);
    await page.click('a[href="#/new"]');
    await page.getByTestId('mode-playbook').check();
    await page.getByTestId('example-picker').selectOption('cleanup-old-logs');
    await page.getByTestId('create-task').click();
    await page.getByRole('dialog').waitFor(WAIT);
    await page.keyboard.press('d');
    await page.getByTestId('deny-reason').waitFor(WAIT);
    await page.keyboard.type('keep it for the audit'); // typing "a" or "d" here must not approve or re-deny
    await shot(page, 'en-deny-reason');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor({ state: 'detached', ...WAIT });
    await page.waitForSelector('[data-testid="step-card"][data-tool="fs.delete"][data-step-status="denied"]', WAIT);
    const client = await serve.connect();
    try {
      const [approval] = (await client.call('approvals.list', {})).approvals;
      expect(approval).toMatchObject({ status: 'denied', decisionReason: 'keep it for the audit' });
    } finally {
      await client.close();
    }
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('serves the page with a strict CSP, keeps /healthz, and refuses paths outside the build', async () => {
    const cli = ui.home();
    const serve = await startServe(cli);
    const page = await fetch(`${serve.info.httpUrl}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await page.text()).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    expect((await fetch(`${serve.info.httpUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${serve.info.httpUrl}/..%2f..%2fpackage.json`)).status).toBe(404);
    expect((await fetch(`${serve.info.httpUrl}/assets/..%2f..%2f..%2fpackage.json`)).status).toBe(404);
  });

  it('without a token the page asks for one, and a wrong token is refused', async () => {
    const cli = ui.home();
    const serve = await startServe(cli);
    const context = await ui.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${serve.info.httpUrl}/`);
    await page.locator('input[type="password"]').fill('not-the-token');
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.waitForSelector('[data-testid="state-error"]', WAIT);
    await page.locator('input[type="password"]').fill(serve.info.token);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.waitForSelector('[data-testid="state-empty"]', WAIT);
    await context.close();
  });
});
