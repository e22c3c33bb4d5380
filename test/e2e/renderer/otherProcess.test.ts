import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { examplePlaybook, type CliSandbox } from '../../support/cliSandbox.js';
import { createTestDatabase } from '../../support/postgres.js';
import { missing } from '../../support/requirements.js';
import { startServe, waitForTaskState } from '../../support/serveProcess.js';
import { openUi, requireBuiltUi, shot, useUiSession, WAIT } from './uiSession.js';

const skip = missing('chromium');
const ui = useUiSession(skip);

describe.skipIf(skip)(`a task another process runs, in the open web UI${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('a CLI `run` beside serve shows up without a reload, asks for its approval there, and the approval finishes it', async () => {
    requireBuiltUi();
    await cliRunBesideServe(ui.home(), 'other-process-approval');
  });

  it('on a gateway with no worker, a task a worker runs shows up, its approval is answered there, and the worker finishes it', async () => {
    requireBuiltUi();
    const cli = ui.home();
    const serve = await startServe(cli, 30_000, ['--no-worker']);
    const worker = cli.spawn(['worker']);
    worker.child.stdin?.end();
    const { page, problems } = await openUi(ui.browser, serve);
    const client = await serve.connect();
    try {
      await page.waitForSelector('[data-testid="state-empty"]', WAIT);
      const source = readFileSync(examplePlaybook('cleanup-old-logs.yaml'), 'utf8');
      const task = await client.call('tasks.create', { playbook: { source, baseDir: cli.home }, inputs: {}, start: true });
      await page.locator('[data-testid="task-list"] tbody tr', { hasText: 'cleanup-old-logs' }).waitFor(WAIT);
      await page.getByRole('dialog').waitFor(WAIT); // raised in the worker's process
      await shot(page, 'worker-approval');
      await page.getByTestId('approve').click(); // decided on the gateway: the worker hears it through the store
      const done = await waitForTaskState(client, task.id, ['succeeded'], 60_000);
      expect(done.checks.every((c) => c.passed)).toBe(true);
      await page
        .locator('[data-testid="task-list"] tbody tr', { hasText: 'cleanup-old-logs' })
        .filter({ hasText: /succeeded/i })
        .waitFor(WAIT);
      expect(worker.running, worker.describe()).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await client.close();
      await page.context().close();
    }
  });

  const noPostgres = missing('postgres');
  it.skipIf(noPostgres !== undefined)(
    `on PostgreSQL, a CLI \`run\` beside serve shows up without a reload, asks for its approval there, and the approval finishes it${noPostgres ? ` (needs postgres: ${noPostgres})` : ''}`,
    async () => {
      requireBuiltUi();
      const cli = ui.home();
      const database = await createTestDatabase();
      writeFileSync(path.join(cli.home, 'config.json'), JSON.stringify({ store: { kind: 'postgres', url: database.url } }));
      try {
        await cliRunBesideServe(cli); // its approval is heard through the store's notices there
      } finally {
        await database.drop();
      }
    },
  );
});

/**
 * `serve` with the web UI open, and a CLI `run` on the same store: the task shows up without a
 * reload, its approval (raised in the CLI's process) is answered on the page, and it finishes.
 */
async function cliRunBesideServe(cli: CliSandbox, screenshot?: string): Promise<void> {
  const serve = await startServe(cli);
  const { page, problems } = await openUi(ui.browser, serve);
  const client = await serve.connect();
  try {
    await page.waitForSelector('[data-testid="state-empty"]', WAIT);
    // Another process on the same store: it creates the task, runs it to its delete, and leaves it waiting.
    const run = await cli.run(['run', examplePlaybook('cleanup-old-logs.yaml'), '--no-interactive', '--json']);
    const taskId = (JSON.parse(run.stdout) as { task: { id: string } }).task.id;
    const row = page.locator('[data-testid="task-list"] tbody tr', { hasText: 'cleanup-old-logs' });
    await row.waitFor(WAIT);
    await page.getByRole('dialog').waitFor(WAIT); // its approval, raised in the CLI's process
    if (screenshot) await shot(page, screenshot);
    await page.getByTestId('approve').click();
    const done = await waitForTaskState(client, taskId, ['succeeded']);
    expect(done.checks.every((c) => c.passed)).toBe(true);
    await row.filter({ hasText: /succeeded/i }).waitFor(WAIT);
    expect(problems).toEqual([]);
  } finally {
    await client.close();
    await page.context().close();
    await serve.child.kill('SIGTERM');
  }
}
