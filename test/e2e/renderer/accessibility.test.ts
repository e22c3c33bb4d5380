import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pollUntil } from '../../support/poll.js';
import { missing } from '../../support/requirements.js';
import { startServe } from '../../support/serveProcess.js';
import { seriousAxeViolations } from './axe.js';
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
const TIDY = `name: tidy-log
steps:
  - id: write
    tool: fs.write
    args: { path: old.log, content: stale }
  - id: remove
    title: Remove the old log
    tool: fs.delete
    args: { path: old.log }
`;
const VIEWS = ['tasks', 'new', 'approvals', 'grants', 'tools', 'schedules', 'settings'] as const;

/**
 * Visible English phrases (two or more English words in a row) outside code, tool and file names,
 * the product's name and what the user wrote (the task title and goal); for the 简体中文 pass.
 */
const ENGLISH_SENTENCES = `(() => {
  const skip = 'code, pre, kbd, script, style, option, .brand, .task-title, .bubble, a[href^="#/task/"], [data-testid="approval-task"], [data-testid="trace-view"] > h1';
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest(skip) || !el.checkVisibility()) continue;
    const text = node.textContent.replace(/[\\w-]+(\\.[\\w-]+)+/g, ' ');
    const hit = text.match(/\\b[A-Za-z]{2,}(\\s+[A-Za-z]{2,})+/);
    if (hit) found.push(hit[0]);
  }
  return found;
})()`;

/** Task state reasons are still English sentences from the server (a `tasks` column, not coded yet). */
const KNOWN_ENGLISH = new Set(['approval needed']);

async function expectNoEnglish(page: Page, view: string): Promise<void> {
  const english = (await page.evaluate<string[]>(ENGLISH_SENTENCES)).filter((phrase) => !KNOWN_ENGLISH.has(phrase));
  expect(english, `${view}: English in the 简体中文 page`).toEqual([]);
}

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

describe.skipIf(skip)(`accessibility, layout and screenshots of every view${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('no serious or critical axe violation on any view, in both languages and themes; a long title wraps; route reasons in the page language', async () => {
    requireBuiltUi();
    const serve = await startServe(ui.home());
    const { page, problems } = await openUi(ui.browser, serve);
    const client = await serve.connect();
    try {
      const task = await client.call('tasks.create', { title: LONG_TITLE, playbook: { source: TIDY } });
      const approval = await (async () => {
        for (let i = 0; i < 300; i++) {
          const { approvals } = await client.call('approvals.list', { status: 'pending' });
          if (approvals[0]) return approvals[0];
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error('no approval was requested');
      })();

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
          await expectAccessible(page, `${look} ${view}`);
          if (locale === 'zh-CN') await expectNoEnglish(page, `${look} ${view}`);
          await shot(page, `views/${look}-${view}`);
        }
        await show(page, `#/task/${task.id}`, '[data-testid="task-detail"]');
        await page.waitForSelector('[data-testid="conversation"] .step-card', WAIT);
        await expectNoOverflow(page, '.task-title', `${look} task page`);
        // The router's reason travels as a code: it reads in the page's language.
        const route = await page.getByTestId('step-route').first().textContent();
        expect(route).toContain(locale === 'zh-CN' ? '计划中指定' : 'named in plan');
        await expectAccessible(page, `${look} task page`);
        if (locale === 'zh-CN') await expectNoEnglish(page, `${look} task page`);
        await shot(page, `views/${look}-task`);
        await show(page, `#/approval/${approval.id}`, '[role="dialog"]');
        await expectNoSideScroll(page, '[role="dialog"]', `${look} approval dialog`);
        // The policy's reason travels as codes too.
        expect(await page.locator('[role="dialog"] .reason').textContent()).toBe(
          locale === 'zh-CN' ? '“删除”类操作默认需要询问' : 'delete asks by default',
        );
        await expectAccessible(page, `${look} approval dialog`);
        if (locale === 'zh-CN') await expectNoEnglish(page, `${look} approval dialog`);
        await shot(page, `views/${look}-approval`);
        await page.keyboard.press('Escape');
        await page.waitForSelector('[role="dialog"]', { state: 'detached', ...WAIT });
        await show(page, `#/trace/${task.id}`, 'main');
        await expectAccessible(page, `${look} trace`);
        if (locale === 'zh-CN') await expectNoEnglish(page, `${look} trace`);
        await shot(page, `views/${look}-trace`);
      }
      expect(problems).toEqual([]);
    } finally {
      await client.close();
      await page.context().close();
    }
  }, 240_000);
});
