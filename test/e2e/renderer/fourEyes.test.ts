import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { Approval, Task } from '../../../electron/contract/index.js';
import { startTestProvider, type TestAccount, type TestProvider } from '../../support/oidcProvider.js';
import { pollUntil } from '../../support/poll.js';
import { missing } from '../../support/requirements.js';
import { freePort, startServeOn, type ServeProcess } from '../../support/serveProcess.js';
import { orderPlaybook } from './taskStates.js';
import { shot, useUiSession, requireBuiltUi, WAIT } from './uiSession.js';

const skip = missing('chromium');
const ui = useUiSession(skip);
const PAGES = path.resolve(import.meta.dirname, '../../fixtures/pages/server.mjs');

const ACCOUNTS: TestAccount[] = [
  { id: 'alice', name: 'Alice', email: 'alice@example.test', groups: ['staff', 'finance'] },
  { id: 'bob', name: 'Bob', email: 'bob@example.test', groups: ['finance'] },
  { id: 'carol', name: 'Carol', email: 'carol@example.test', groups: ['finance'] },
  { id: 'victor', name: 'Victor', email: 'victor@example.test', groups: [] },
];

let provider: TestProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

/** Signs `login` in the way a person does: the web UI's sign-in link, the provider's login form, back to the app. */
async function signIn(browser: Browser, serve: ServeProcess, login: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
  await page.goto(`${serve.info.httpUrl}/`);
  await page.getByTestId('sign-in').click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click(); // the provider asks to share the profile once
  await page.getByTestId('signed-in').waitFor(WAIT);
  expect(page.url(), 'the session token is scrubbed from the address').not.toContain('token=');
  return page;
}

async function startTeam(): Promise<{ serve: ServeProcess; origin: string; orders: () => Promise<number> }> {
  const cli = ui.home();
  const port = await freePort();
  provider = await startTestProvider(ACCOUNTS, [`http://127.0.0.1:${port}/auth/callback`]);
  const site = cli.pool.spawn({ command: process.execPath, args: [PAGES], cwd: path.dirname(PAGES), env: { ...process.env, PORT: '0' } });
  const [, sitePort] = await site.waitForOutput(/pages on http:\/\/127\.0\.0\.1:(\d+)/);
  const origin = `http://127.0.0.1:${sitePort}`;
  const config = {
    auth: {
      oidc: {
        issuer: provider.issuer,
        clientId: provider.clientId,
        allowInsecureIssuer: true,
        scopes: ['openid', 'profile', 'email', 'groups'],
        roles: { operator: ['staff'], approver: ['finance'] },
        defaultRoles: ['viewer'],
      },
    },
    policy: { networkAllow: [`127.0.0.1:${sitePort}`], approvals: { payment: { approvers: 2, notOwner: true } } },
  };
  writeFileSync(path.join(cli.home, 'config.json'), JSON.stringify(config));
  const serve = await startServeOn(cli, port);
  const orders = async () => ((await (await fetch(`${origin}/orders`)).json()) as { count: number }).count;
  return { serve, origin, orders };
}

/** Alice starts the purchase from the New task view, as a person does. */
async function startPurchase(page: Page, origin: string, name: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: 'New task' }).click();
  await page.getByTestId('mode-playbook').check();
  await page.getByRole('button', { name: 'Write a playbook in YAML instead' }).click();
  await page.getByRole('textbox', { name: 'Playbook YAML' }).fill(orderPlaybook(origin, name));
  await page.getByRole('button', { name: 'Create and start' }).click();
}

/** Opens the waiting approval from the banner every view shows. */
async function review(page: Page) {
  const dialog = page.getByRole('dialog');
  const banner = page.getByTestId('pending-review');
  // A request heard live pops the dialog by itself; one asked before this page opened waits in the banner.
  await dialog.or(banner).first().waitFor(WAIT);
  if (!(await dialog.isVisible())) await banner.click();
  await dialog.waitFor(WAIT);
  return dialog;
}

describe.skipIf(skip)(`four eyes for payments, signed in with OpenID Connect${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('Alice starts a purchase and cannot approve it; Bob approves, Carol approves (in 简体中文), and it runs once', async () => {
    requireBuiltUi();
    const { serve, origin, orders } = await startTeam();
    const admin = await serve.connect();
    try {
      const alice = await signIn(ui.browser, serve, 'alice');
      expect(await alice.getByTestId('signed-in').textContent()).toBe('Signed in as Alice');
      await startPurchase(alice, origin, 'alice-order');
      const aliceDialog = await review(alice);
      await aliceDialog.getByTestId('own-task').waitFor(WAIT);
      expect(await aliceDialog.getByTestId('approval-votes').textContent()).toContain('Needs 2 different people to approve.');
      expect(await aliceDialog.getByTestId('approve').count(), 'no Approve button for the task’s owner').toBe(0);
      await shot(alice, 'four-eyes/en-owner-cannot-approve');
      const [task] = (await admin.call('tasks.list', {})).tasks as Task[];
      expect(task!.owner?.name).toBe('Alice');

      const bob = await signIn(ui.browser, serve, 'bob');
      const bobDialog = await review(bob);
      await bobDialog.getByTestId('approve').click();
      await bobDialog.waitFor({ state: 'detached', ...WAIT });
      const afterBob = await pollUntil('Bob’s vote', async () => {
        const [a] = (await admin.call('approvals.list', { taskId: task!.id })).approvals as Approval[];
        return a?.votes?.length === 1 ? a : undefined;
      });
      expect(afterBob).toMatchObject({ status: 'pending', votes: [{ by: { name: 'Bob' }, decision: 'approve', counted: true }] });
      expect(await orders()).toBe(0);
      // Alice's open dialog hears of Bob's vote.
      await pollUntil(
        'Alice sees Bob agreed',
        async () => ((await aliceDialog.getByTestId('approval-votes').textContent()) ?? '').includes('Bob') || undefined,
      );

      const carol = await signIn(ui.browser, serve, 'carol');
      await carol.getByTestId('locale-switch').selectOption('zh-CN');
      const carolDialog = await review(carol);
      const votes = (await carolDialog.getByTestId('approval-votes').textContent()) ?? '';
      expect(votes).toContain('需要 2 位不同的人批准。');
      expect(votes).toContain('已同意：Bob');
      await shot(carol, 'four-eyes/zh-second-approver');
      await carolDialog.getByTestId('approve').click();
      await carolDialog.waitFor({ state: 'detached', ...WAIT });
      await pollUntil('the purchase finishes', async () =>
        (await admin.call('tasks.get', { taskId: task!.id })).task.state === 'succeeded' ? true : undefined,
      );
      expect(await orders(), 'the order was placed once').toBe(1);
      const [decided] = (await admin.call('approvals.list', { taskId: task!.id })).approvals as Approval[];
      expect(decided).toMatchObject({ status: 'approved', decidedBy: 'Bob, Carol' });
    } finally {
      await admin.close();
    }
  }, 300_000);

  it('a denial by Bob ends it; Victor (a viewer) sees the task and no approve button', async () => {
    requireBuiltUi();
    const { serve, origin, orders } = await startTeam();
    const admin = await serve.connect();
    try {
      const alice = await signIn(ui.browser, serve, 'alice');
      await startPurchase(alice, origin, 'denied-order');
      await review(alice);
      const [task] = (await admin.call('tasks.list', {})).tasks as Task[];

      const victor = await signIn(ui.browser, serve, 'victor');
      await victor.getByRole('link', { name: 'denied-order' }).first().waitFor(WAIT);
      const victorDialog = await review(victor);
      await victorDialog.getByTestId('cannot-decide').waitFor(WAIT);
      expect(await victorDialog.getByRole('button', { name: /Approve|Deny/ }).count()).toBe(0);
      await shot(victor, 'four-eyes/en-viewer');

      const bob = await signIn(ui.browser, serve, 'bob');
      const bobDialog = await review(bob);
      await bobDialog.getByTestId('deny').click();
      await bobDialog.getByTestId('deny-reason').fill('not this supplier');
      await bobDialog.getByRole('button', { name: 'Deny with this reason' }).click();
      await bobDialog.waitFor({ state: 'detached', ...WAIT });
      await pollUntil('the purchase ends', async () =>
        (await admin.call('tasks.get', { taskId: task!.id })).task.state === 'failed' ? true : undefined,
      );
      expect(await orders()).toBe(0);
      const [denied] = (await admin.call('approvals.list', { taskId: task!.id })).approvals as Approval[];
      expect(denied).toMatchObject({ status: 'denied', decidedBy: 'Bob', decisionReason: 'not this supplier' });
    } finally {
      await admin.close();
    }
  }, 300_000);
});
