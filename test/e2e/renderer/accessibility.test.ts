import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pollUntil } from '../../support/poll.js';
import { missing } from '../../support/requirements.js';
import { startServe } from '../../support/serveProcess.js';
import { seriousAxeViolations } from './axe.js';
import { expectNoEnglish } from './englishText.js';
import { TIDY, type TaskStates, taskInEveryState } from './taskStates.js';
import { openUi, requireBuiltUi, shot, useUiSession, WAIT } from './uiSession.js';

const skip = missing('chromium');
const ui = useUiSession(skip);

/** 200 characters with one unbroken 150-character run (a path) and Chinese: the worst a title can be for layout. */
const LONG_TITLE = (
  'Tidy /var/lib/agent-desk/workspaces/' +
  'x'.repeat(90) +
  '/old-logs-that-nobody-reads-any-more ' +
  '整理旧日志并删除不再需要的文件，然后报告结果 then report what was removed'
).slice(0, 200);
const VIEWS = ['tasks', 'new', 'approvals', 'grants', 'tools', 'schedules', 'settings'] as const;

/** Fails with every serious or critical axe finding of the view, named. */
async function expectAccessible(page: Page, view: string): Promise<void> {
  const problems = await seriousAxeViolations(page);
  expect(problems, `${view}: ${JSON.stringify(problems, null, 1)}`).toEqual([]);
}

/** Fails when the page scrolls sideways or the element sticks out of the viewport. */
async function expectNoOverflow(page: Page, selector: string, view: string): Promise<void> {
  const layout = await page.evaluate<{ scroll: number; client: number; right: number }>(`(() => {
    const box = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect();
    return { scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, right: box.right };
  })()`);
  expect(layout.scroll, `${view}: page wider than the window`).toBeLessThanOrEqual(layout.client);
  expect(layout.right, `${view}: ${selector} past the window's edge`).toBeLessThanOrEqual(layout.client);
}

/** Fails when the element's content is wider than the element (a title running past a dialog's edge). */
async function expectNoSideScroll(page: Page, selector: string, view: string): Promise<void> {
  const widths = await page.evaluate<{ scroll: number; client: number }>(`(() => {
    const box = document.querySelector(${JSON.stringify(selector)});
    return { scroll: box.scrollWidth, client: box.clientWidth };
  })()`);
  expect(widths.scroll, `${view}: ${selector} content wider than the box`).toBeLessThanOrEqual(widths.client);
}

async function show(page: Page, hash: string, ready: string): Promise<void> {
  await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);
  await page.waitForSelector(ready, WAIT);
}

async function useLook(page: Page, locale: 'en' | 'zh-CN', theme: 'light' | 'dark'): Promise<void> {
  await page.getByTestId('locale-switch').selectOption(locale);
  const current = await page.evaluate<string>('document.documentElement.dataset.theme ?? "light"');
  if (current !== theme) await page.getByTestId('theme-switch').click();
  await pollUntil(`the ${theme} theme`, () =>
    page.evaluate<boolean>(`document.documentElement.dataset.theme === ${JSON.stringify(theme)}`).then((ok) => ok || undefined),
  );
}

/** What each ended or waiting task's page says about why, in each language: the reason comes as a code. */
const REASONS = {
  succeeded: { en: 'all 1 acceptance checks passed', 'zh-CN': '全部 1 项验收检查均已通过' },
  failedCheck: {
    en: 'acceptance check failed: file_exists report.md (not found: ',
    'zh-CN': '验收检查未通过：file_exists report.md（未找到：',
  },
  failedStep: { en: 'step 1 (fs.read) failed: ', 'zh-CN': '第 1 步（fs.read）失败：' },
  cancelled: { en: 'cancelled by the user', 'zh-CN': '已由用户取消' },
  denied: { en: 'step 2 (fs.delete) denied by ', 'zh-CN': '第 2 步（fs.delete）被 ' },
  waiting: { en: 'approval needed: Delete old.log (5 bytes)', 'zh-CN': '需要审批：删除 old.log（5 字节）' },
} as const;

type Look = { locale: 'en' | 'zh-CN'; theme: 'light' | 'dark' };

/** One view checked the way every view is: no serious axe finding, no English in 简体中文, a screenshot. */
async function checkView(page: Page, { locale, theme }: Look, view: string): Promise<void> {
  const name = `${locale}-${theme} ${view}`;
  await expectAccessible(page, name);
  if (locale === 'zh-CN') await expectNoEnglish(page, name);
  await shot(page, `views/${locale}-${theme}-${view}`);
}

/** The conversation of each task that ended or waits, with its state reason in the page's language. */
async function taskPages(page: Page, look: Look, tasks: TaskStates): Promise<void> {
  for (const which of ['succeeded', 'failedCheck', 'failedStep', 'cancelled', 'denied', 'waiting'] as const) {
    await show(page, `#/task/${tasks[which].id}`, '[data-testid="task-detail"]');
    await page.waitForSelector('[data-testid="conversation"] .step-card', WAIT);
    const reason = page.getByTestId('task-detail').locator('> .reason');
    expect(await reason.textContent(), `${which} reason`).toContain(REASONS[which][look.locale]);
    if (which === 'succeeded') {
      // A default check name with a word in it reads in the page language too.
      expect(await page.getByTestId('checks').textContent()).toContain(
        look.locale === 'zh-CN' ? 'file_exists done.log（不存在）' : 'file_exists done.log (absent)',
      );
    }
    await checkView(page, look, `task-${which}`);
  }
}

describe.skipIf(skip)(`accessibility, layout and screenshots of every view${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('no serious or critical axe violation on any view, in both languages and themes, and no English in 简体中文; a long title wraps; server sentences in the page language', async () => {
    requireBuiltUi();
    const serve = await startServe(ui.home());
    const client = await serve.connect();
    // Settled before the page opens, so no approval dialog pops up over the views.
    const tasks = await taskInEveryState(client, LONG_TITLE);
    await client.call('cron.add', { name: 'nightly', schedule: '0 2 * * *', target: { kind: 'playbook', source: TIDY } });
    const { page, problems } = await openUi(ui.browser, serve);
    const task = tasks.waiting;
    try {
      for (const [locale, theme] of [
        ['en', 'light'],
        ['en', 'dark'],
        ['zh-CN', 'light'],
        ['zh-CN', 'dark'],
      ] as const) {
        await useLook(page, locale, theme);
        const look = `${locale}-${theme}`;
        for (const view of VIEWS) {
          await show(page, `#/${view}`, 'main');
          await page.waitForSelector('[data-testid="state-loading"]', { state: 'detached', ...WAIT });
          if (view === 'tasks') {
            await page.waitForSelector('[data-testid="task-list"] tbody tr', WAIT);
            await expectNoOverflow(page, '[data-testid="task-list"]', `${look} task list`);
          }
          if (view === 'grants') await page.getByRole('button', { name: /fs\.delete/ }).waitFor(WAIT);
          if (view === 'schedules') await page.locator('tr[data-job="nightly"]').waitFor(WAIT);
          await checkView(page, { locale, theme }, view);
        }
        await taskPages(page, { locale, theme }, tasks);
        await show(page, `#/task/${task.id}`, '[data-testid="task-detail"]');
        await page.waitForSelector('[data-testid="conversation"] .step-card', WAIT);
        await expectNoOverflow(page, '.task-title', `${look} task page`);
        // The router's reason travels as a code: it reads in the page's language.
        const route = await page.getByTestId('step-route').first().textContent();
        expect(route).toContain(locale === 'zh-CN' ? '计划中指定' : 'named in plan');
        await show(page, `#/approval/${tasks.approval.id}`, '[role="dialog"]');
        await expectNoSideScroll(page, '[role="dialog"]', `${look} approval dialog`);
        // The policy's reason and the preview's summary travel as codes too.
        expect(await page.locator('[role="dialog"] .reason').textContent()).toBe(
          locale === 'zh-CN' ? '“删除”类操作默认需要询问' : 'delete asks by default',
        );
        expect(await page.locator('[role="dialog"] .summary').textContent()).toBe(
          locale === 'zh-CN' ? '删除 old.log（5 字节）' : 'Delete old.log (5 bytes)',
        );
        await checkView(page, { locale, theme }, 'approval');
        await page.keyboard.press('Escape');
        await page.waitForSelector('[role="dialog"]', { state: 'detached', ...WAIT });
        await show(page, `#/trace/${task.id}`, 'main');
        await checkView(page, { locale, theme }, 'trace');
      }
      expect(problems).toEqual([]);
    } finally {
      await client.close();
      await page.context().close();
    }
  }, 300_000);
});
