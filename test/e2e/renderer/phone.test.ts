import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Approval } from '../../../electron/contract/index.js';
import { missing } from '../../support/requirements.js';
import { startServe, type ServeProcess } from '../../support/serveProcess.js';
import { seriousAxeViolations } from './axe.js';
import { TIDY, orderPlaybook, pendingApprovalOf, taskInEveryState } from './taskStates.js';
import { requireBuiltUi, shot, useUiSession, WAIT } from './uiSession.js';

const skip = missing('chromium');
const ui = useUiSession(skip);

/** The phones the web UI is laid out for, narrowest to widest; axe runs at the first two. */
const PHONES = [
  { width: 390, height: 844, axe: true },
  { width: 360, height: 740, axe: true },
  { width: 430, height: 932, axe: false },
] as const;
type Phone = (typeof PHONES)[number];
const DESKTOP = { width: 1280, height: 860 };
/** The pages the top bar links to, by address. */
const NAV_VIEWS = ['tasks', 'new', 'approvals', 'grants', 'tools', 'schedules', 'settings'] as const;
/** A title with a long unbroken run (a path): the worst a task-list card has to hold. */
const LONG_TITLE = 'Tidy /var/lib/agent-desk/workspaces/nightly-reports/old-logs-that-nobody-reads 整理旧日志并删除不再需要的文件';
const PAGES = path.resolve(import.meta.dirname, '../../fixtures/pages/server.mjs');

/** Opens the app the way a phone does: its viewport, touch, and the address with `#token=…`. */
async function openOnPhone(
  browser: Browser,
  serve: ServeProcess,
  phone: { width: number; height: number },
  token = serve.info.token,
): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({
    viewport: { width: phone.width, height: phone.height },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  await page.goto(`${serve.info.httpUrl}/#token=${encodeURIComponent(token)}`);
  await page.locator('header nav').waitFor(WAIT);
  return { page, problems };
}

/** The element lies wholly inside the window as it is scrolled now: seen without scrolling. */
async function onScreen(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const window = locator.page().viewportSize();
  if (!box || !window || box.width === 0) return false;
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= window.width && box.y + box.height <= window.height;
}

/**
 * Fails when the page is wider than the phone (a mobile browser then zooms the page out, so the
 * window reports more than the phone's width), or when a top-bar link or switch is off screen.
 */
async function expectFits(page: Page, phone: { width: number }, where: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  const layout = await page.evaluate<{ scrollWidth: number; innerWidth: number; offScreen: string[] }>(`(() => {
    const seen = (el) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.left >= 0 && box.top >= 0 && box.right <= innerWidth && box.bottom <= innerHeight;
    };
    const bar = [...document.querySelectorAll('header nav a, [data-testid="locale-switch"], [data-testid="theme-switch"]')];
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth,
      offScreen: bar.filter((el) => !seen(el)).map((el) => el.getAttribute('href') ?? el.dataset.testid),
    };
  })()`);
  expect(layout.innerWidth, `${where}: the page was zoomed out to fit its width`).toBe(phone.width);
  expect(layout.scrollWidth, `${where}: the page scrolls sideways`).toBeLessThanOrEqual(layout.innerWidth);
  expect(layout.offScreen, `${where}: top-bar controls outside the screen`).toEqual([]);
}

async function expectAccessible(page: Page, where: string): Promise<void> {
  const problems = await seriousAxeViolations(page);
  expect(problems, `${where}: ${JSON.stringify(problems, null, 1)}`).toEqual([]);
}

/** One view as the phone shows it: it fits, axe finds nothing serious (where asked), and a screenshot. */
async function checkView(page: Page, phone: Phone, locale: string, view: string): Promise<void> {
  const where = `${locale} ${phone.width}×${phone.height} ${view}`;
  await expectFits(page, phone, where);
  if (phone.axe) await expectAccessible(page, where);
  await shot(page, `phone/${locale}-${phone.width}-${view}`);
}

const settled = (page: Page) => page.waitForSelector('[data-testid="state-loading"]', { state: 'detached', ...WAIT });

/** Taps a top-bar link and waits for its page to settle. */
async function tapNav(page: Page, view: string): Promise<void> {
  await page.locator(`header nav a[href="#/${view}"]`).tap();
  if (view === 'tasks') await page.locator('[data-testid="task-list"] tbody tr').first().waitFor(WAIT);
  if (view === 'grants') await page.getByTestId('grants').locator('tbody tr').first().waitFor(WAIT);
  if (view === 'schedules') await page.locator('tr[data-job="nightly"]').waitFor(WAIT);
  if (view === 'tools') await page.locator('tr[data-tool="fs.write"]').waitFor(WAIT);
  // The view is on the page first, so its sections' loading states are there to wait for: a wait
  // right after the tap could pass before settings mounted, and snapshot its secrets 'Loading…'.
  if (view === 'settings') await page.getByTestId('mcp-add').waitFor(WAIT);
  await settled(page);
}

/** Each task-list row is a card: its title spans the row instead of a narrow column wrapping a word a line. */
async function expectTaskCards(page: Page, where: string): Promise<void> {
  const narrow = await page.evaluate<string[]>(`[...document.querySelectorAll('[data-testid="task-list"] tbody tr')]
    .filter((row) => row.firstElementChild.getBoundingClientRect().width < row.getBoundingClientRect().width - 1)
    .map((row) => row.textContent.slice(0, 40))`);
  expect(narrow, `${where}: task titles squeezed into a column`).toEqual([]);
}

/** What a screen reader is given: every role and name Chromium exposes (line boxes aside, which follow the width). */
async function accessibilityTree(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: { ignored: boolean; role?: { value: string }; name?: { value: string } }[];
    };
    return nodes.filter((n) => !n.ignored && n.role?.value !== 'InlineTextBox').map((n) => `${n.role?.value} ${n.name?.value ?? ''}`);
  } finally {
    await cdp.detach();
  }
}

/** The first `stops` elements Tab reaches from the top of the page. */
async function tabOrder(page: Page, stops = 16): Promise<string[]> {
  await page.evaluate(`document.body.tabIndex = -1; document.body.focus(); document.body.removeAttribute('tabindex')`);
  const order: string[] = [];
  for (let i = 0; i < stops; i++) {
    await page.keyboard.press('Tab');
    order.push(
      await page.evaluate<string>(`(() => {
        const el = document.activeElement;
        return el ? el.tagName + ' ' + (el.getAttribute('href') ?? el.dataset.testid ?? el.textContent.trim().slice(0, 40)) : '';
      })()`),
    );
  }
  return order;
}

/** The order playbook of the pages fixture: its "Place order" click asks, with a marked screenshot. */

describe.skipIf(skip)(`the web UI on a phone${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('every view fits 360–430 px in English and 简体中文: no sideways scroll, the top bar on screen, no serious axe finding', async () => {
    requireBuiltUi();
    const serve = await startServe(ui.home());
    const client = await serve.connect();
    // Settled before the phone opens the app, so no prompt pops over the views; one approval waits.
    const tasks = await taskInEveryState(client, LONG_TITLE);
    await client.call('cron.add', { name: 'nightly', schedule: '0 2 * * *', target: { kind: 'playbook', source: TIDY } });
    await client.close();
    for (const phone of PHONES) {
      const { page, problems } = await openOnPhone(ui.browser, serve, phone);
      for (const locale of ['en', 'zh-CN'] as const) {
        await page.getByTestId('locale-switch').selectOption(locale);
        for (const view of NAV_VIEWS) {
          await tapNav(page, view);
          if (view === 'tasks') await expectTaskCards(page, `${locale} ${phone.width} tasks`);
          await checkView(page, phone, locale, view);
        }
        // A task's conversation and its trace, reached by tapping as a person would.
        await tapNav(page, 'tasks');
        await page.locator(`[data-testid="task-list"] a[href="#/task/${tasks.waiting.id}"]`).tap();
        await page.waitForSelector('[data-testid="conversation"] .step-card', WAIT);
        await checkView(page, phone, locale, 'task');
        await page.getByTestId('open-trace').tap();
        await page.waitForSelector('[data-testid="trace-view"] tbody tr', WAIT);
        await checkView(page, phone, locale, 'trace');
        // The waiting approval's prompt: a sheet that fits, its decision on screen.
        await page.getByTestId('pending-review').tap();
        const dialog = page.getByRole('dialog');
        await dialog.waitFor(WAIT);
        const sideways = await page.evaluate<boolean>(
          `(({ scrollWidth, clientWidth }) => scrollWidth > clientWidth)(document.querySelector('[role="dialog"]'))`,
        );
        expect(sideways, `${locale} ${phone.width}: the dialog scrolls sideways`).toBe(false);
        expect(await onScreen(dialog.getByTestId('approve')), `${locale} ${phone.width}: Approve off screen`).toBe(true);
        expect(await onScreen(dialog.getByTestId('deny')), `${locale} ${phone.width}: Deny off screen`).toBe(true);
        await checkView(page, phone, locale, 'approval');
        await dialog.getByRole('button', { name: locale === 'en' ? 'Close (Esc)' : '关闭 (Esc)' }).tap();
        await dialog.waitFor({ state: 'detached', ...WAIT });
      }
      expect(problems).toEqual([]);
      await page.context().close();
    }
  }, 600_000);

  it('a phone gives a screen reader and the keyboard the same page as the desktop', async () => {
    requireBuiltUi();
    const serve = await startServe(ui.home());
    const client = await serve.connect();
    await taskInEveryState(client, LONG_TITLE);
    await client.call('cron.add', { name: 'nightly', schedule: '0 2 * * *', target: { kind: 'playbook', source: TIDY } });
    await client.close();
    const { page, problems } = await openOnPhone(ui.browser, serve, PHONES[0]);
    for (const view of NAV_VIEWS) {
      await tapNav(page, view);
      await page.setViewportSize(DESKTOP);
      const desktop = { tree: await accessibilityTree(page), tabs: await tabOrder(page) };
      await page.setViewportSize(PHONES[0]);
      await expectFits(page, PHONES[0], view);
      expect(await accessibilityTree(page), `${view}: what a screen reader gets`).toEqual(desktop.tree);
      expect(await tabOrder(page), `${view}: Tab order`).toEqual(desktop.tabs);
    }
    expect(problems).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('an approval waits with its marked screenshot: from the first screen, Review then Approve decides it', async () => {
    requireBuiltUi();
    const cli = ui.home();
    const site = cli.pool.spawn({ command: process.execPath, args: [PAGES], cwd: path.dirname(PAGES), env: { ...process.env, PORT: '0' } });
    const [, port] = await site.waitForOutput(/pages on http:\/\/127\.0\.0\.1:(\d+)/);
    const origin = `http://127.0.0.1:${port}`;
    writeFileSync(path.join(cli.home, 'config.json'), JSON.stringify({ policy: { networkAllow: [`127.0.0.1:${port}`] } }));
    const serve = await startServe(cli);
    const client = await serve.connect();
    let approval: Approval;
    try {
      const task = await client.call('tasks.create', { playbook: { source: orderPlaybook(origin) } });
      approval = await pendingApprovalOf(client, task.id);
      expect(approval.preview.screenshot, 'the click carries a marked screenshot').toBeTruthy();

      const phone = PHONES[0];
      const { page, problems } = await openOnPhone(ui.browser, serve, phone);
      let taps = 0;
      const tap = async (target: Locator) => {
        expect(await onScreen(target), `tap ${taps + 1}: the target is on screen without scrolling`).toBe(true);
        taps++;
        await target.tap();
      };
      const review = page.getByTestId('pending-banner').getByRole('button', { name: 'Review' });
      await review.waitFor(WAIT);
      await tap(review);
      const dialog = page.getByRole('dialog');
      await dialog.waitFor(WAIT);
      // The screenshot is scaled to the phone's width, not cropped and not a thumbnail.
      const image = dialog.locator('figure img');
      await image.waitFor(WAIT);
      const fit = await page.evaluate<{ shown: number; left: number; top: number; natural: number; room: number }>(`(() => {
        const img = document.querySelector('[role="dialog"] figure img');
        const box = img.getBoundingClientRect();
        return { shown: box.width, left: box.left, top: box.top, natural: img.naturalWidth, room: img.closest('[role="dialog"]').clientWidth };
      })()`);
      expect(fit.left).toBeGreaterThanOrEqual(0);
      expect(fit.shown, 'the screenshot fills the dialog').toBeGreaterThanOrEqual(fit.room * 0.85);
      expect(fit.shown + fit.left, 'the screenshot within the screen').toBeLessThanOrEqual(phone.width);
      expect(fit.natural, 'the screenshot is scaled down, not cut').toBeGreaterThan(fit.shown);
      expect(fit.top, 'the screenshot starts on the first screen').toBeLessThan(phone.height / 2);
      await shot(page, 'phone/en-390-approval-screenshot');
      await expectAccessible(page, 'approval with screenshot');
      await tap(dialog.getByRole('button', { name: 'Approve (A)' }));
      await dialog.waitFor({ state: 'detached', ...WAIT });
      expect(taps).toBe(2);
      const decided = (await client.call('approvals.list', {})).approvals.find((a) => a.id === approval.id);
      expect(decided?.status).toBe('approved');
      expect(problems).toEqual([]);
      await page.context().close();
    } finally {
      await client.close();
    }
  }, 180_000);

  it('an approvals-only token opens the app on the inbox; Review then Deny refuses the delete', async () => {
    requireBuiltUi();
    const cli = ui.home();
    const serve = await startServe(cli);
    const client = await serve.connect();
    try {
      const task = await client.call('tasks.create', { playbook: { source: TIDY } });
      const approval = await pendingApprovalOf(client, task.id);
      const made = await cli.run(['tokens', 'create', '--scopes', 'operator.approvals', '--name', 'phone', '--json']);
      const { secret } = made.json<{ secret: string }>();

      for (const phone of PHONES.slice(0, 2)) {
        const { page, problems } = await openOnPhone(ui.browser, serve, phone, secret);
        const inbox = page.getByTestId('approvals-inbox');
        await inbox.getByRole('listitem').filter({ hasText: 'fs.delete' }).waitFor(WAIT);
        // The one page this token may use: the top bar links only to it.
        const links = await page.evaluate<string[]>(`[...document.querySelectorAll('header nav a')].map((a) => a.getAttribute('href'))`);
        expect(links).toEqual(['#/approvals']);
        await checkView(page, phone, 'en', 'approvals-only');
        if (phone === PHONES[1]) {
          await inbox.getByRole('button', { name: 'Review' }).tap();
          const dialog = page.getByRole('dialog');
          await dialog.waitFor(WAIT);
          expect(await onScreen(dialog.getByTestId('deny'))).toBe(true);
          await dialog.getByTestId('deny').tap();
          await dialog.getByTestId('deny-reason').fill('keep the log');
          await dialog.getByRole('button', { name: 'Deny with this reason' }).tap();
          await dialog.waitFor({ state: 'detached', ...WAIT });
          const decided = (await client.call('approvals.list', {})).approvals.find((a) => a.id === approval.id);
          expect(decided?.status).toBe('denied');
          expect(decided?.decisionReason).toBe('keep the log');
        }
        expect(problems).toEqual([]);
        await page.context().close();
      }
    } finally {
      await client.close();
    }
  }, 180_000);
});
