import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { GatewayClient } from '../../../electron/capabilities/transports/wsClient.js';
import { pollUntil } from '../../support/poll.js';
import { missing } from '../../support/requirements.js';
import { startServe } from '../../support/serveProcess.js';
import { writeThenDelete } from './taskStates.js';
import { openUi, requireBuiltUi, shot, useUiSession, WAIT } from './uiSession.js';

const skip = missing('chromium');
const ui = useUiSession(skip);

/** Its delete asks; it succeeds only when the file is really gone. */
const CLEANUP = writeThenDelete('cleanup-old-log', 'old.log', { checked: true });

/** How far ahead the schedule fires: room for the form to be filled and sent. */
const LEAD_MS = 10_000;

/** A six-field (seconds) croner expression that fires once, at `at` (UTC), and then not until next year. */
function onceAt(at: Date): string {
  return `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} ${at.getUTCDate()} ${at.getUTCMonth() + 1} *`;
}

const TEXT = {
  en: {
    schedules: 'Schedules',
    tasks: 'Tasks',
    approve: 'Approve (A)',
    add: 'Add schedule',
    succeeded: 'Succeeded',
    trigger: 'Schedule',
    reason: 'all 1 acceptance checks passed',
    summary: 'Delete old.log (5 bytes)',
  },
  'zh-CN': {
    schedules: '定时任务',
    tasks: '任务',
    approve: '批准 (A)',
    add: '添加',
    succeeded: '已成功',
    trigger: '按计划',
    reason: '全部 1 项验收检查均已通过',
    summary: '删除 old.log（5 字节）',
  },
} as const;

async function addScheduleInUi(page: Page, name: string, expression: string, text: (typeof TEXT)[keyof typeof TEXT]): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: text.schedules }).click();
  await page.getByTestId('cron-name').fill(name);
  await page.getByTestId('cron-schedule').fill(expression);
  await page.getByTestId('cron-text').fill(CLEANUP);
  await page.getByRole('button', { name: text.add, exact: true }).click();
  await page.locator(`tr[data-job="${name}"]`).waitFor(WAIT);
}

/** The job's next fire time as the server planned it: the one the test chose, or the form was too slow. */
async function expectFiresAt(client: GatewayClient, name: string, at: Date): Promise<void> {
  const { jobs } = await client.call('cron.list', {});
  const job = jobs.find((j) => j.name === name);
  expect(job?.nextRunAt, `the schedule was added after its fire time ${at.toISOString()}`).toBe(
    new Date(at.setUTCMilliseconds(0)).toISOString(),
  );
}

describe.skipIf(skip)(`a task started by a schedule, approved in the UI${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it.each(['en', 'zh-CN'] as const)(
    '%s: the schedule fires, its delete asks, the user approves in the dialog and the task succeeds',
    async (locale) => {
      requireBuiltUi();
      const text = TEXT[locale];
      const serve = await startServe(ui.home());
      const { page, problems } = await openUi(ui.browser, serve);
      const client = await serve.connect();
      try {
        await page.getByTestId('locale-switch').selectOption(locale);
        const name = `nightly cleanup ${locale}`;
        const title = `cleanup-old-log (cron: ${name})`;
        const at = new Date(Date.now() + LEAD_MS);
        await addScheduleInUi(page, name, onceAt(at), text);
        await expectFiresAt(client, name, at);

        // The fire time comes; the gated delete opens the approval dialog by itself, naming the cron task.
        const dialog = page.getByRole('dialog');
        await dialog.waitFor({ timeout: LEAD_MS + WAIT.timeout });
        expect(await dialog.getByTestId('approval-task').textContent()).toContain(title);
        expect(await dialog.locator('.summary').textContent()).toBe(text.summary);
        await shot(page, `cron/${locale}-approval`);
        await dialog.getByRole('button', { name: text.approve }).click();
        await dialog.waitFor({ state: 'detached', ...WAIT });

        // The task list, then the task: it finished, and says why in the page's language.
        await page.getByRole('navigation').getByRole('link', { name: text.tasks, exact: true }).click();
        await page.getByRole('link', { name: title }).click();
        const detail = page.getByTestId('task-detail');
        await detail.getByText(text.succeeded, { exact: true }).waitFor(WAIT);
        expect(await detail.locator('.reason').textContent()).toContain(text.reason);
        await shot(page, `cron/${locale}-task`);

        // The schedule's run record: fired by the schedule itself (not "Run now"), its task succeeded.
        await page.getByRole('navigation').getByRole('link', { name: text.schedules }).click();
        await page.locator(`tr[data-job="${name}"]`).getByRole('button', { name }).click();
        const run = page.locator('[data-testid="cron-runs"] tr[data-outcome="queued"]');
        await run.waitFor(WAIT);
        await pollUntil('the run row to show the succeeded task', async () => {
          const row = await run.textContent();
          return row?.includes(text.trigger) && row.includes(text.succeeded) ? row : undefined;
        });
        await shot(page, `cron/${locale}-schedules`);

        // What the user saw is what happened: the file is gone and no approval is left.
        const { runs } = await client.call('cron.runs', { jobId: (await client.call('cron.list', {})).jobs[0]!.id, limit: 5 });
        expect(runs.map((r) => [r.trigger, r.outcome])).toEqual([['schedule', 'queued']]);
        const task = (await client.call('tasks.get', { taskId: runs[0]!.taskId! })).task;
        expect(task.state).toBe('succeeded');
        expect(task.checks.map((c) => c.passed)).toEqual([true]);
        expect((await client.call('approvals.list', { status: 'pending' })).approvals).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await client.close();
        await page.context().close();
      }
    },
    120_000,
  );
});
