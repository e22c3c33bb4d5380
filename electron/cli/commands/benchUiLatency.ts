import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Browser, Page } from 'playwright-core';
import { startWsGateway } from '../../capabilities/transports/wsServer.js';
import { webUiHandler } from '../../capabilities/transports/webUi.js';
import type { RuntimeCore } from '../../runtime/core/runtimeCore.js';
import { ScriptedProvider } from '../../runtime/models/scriptedProvider.js';
import { toWireName } from '../../runtime/planning/llm/toolCatalog.js';
import { openBenchRuntime } from './benchRuntime.js';
import { median, round } from './benchStats.js';

const WAIT = { timeout: 30_000 };
const DELETE_PLAYBOOK = 'name: bench-approval\nsteps:\n  - id: remove\n    tool: fs.delete\n    args: { path: old.log }\n';
const elapsedMs = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e6;

/** Each goal task's model: one fs.write call (the first step card), then the answer. */
const scriptedModel = () =>
  new ScriptedProvider([
    { calls: [{ name: toWireName('fs.write'), arguments: { path: 'note.txt', content: 'hi' } }] },
    { text: 'Wrote note.txt.' },
  ]);

/** Median ms of the shipped UI's two waits a user feels most: goal → first step card, approval → dialog. */
export interface UiLatencyFigures {
  goalSubmittedToFirstStepCard: number;
  goalSubmittedToFirstStepCardMax: number;
  approvalRequestedToDialog: number;
  approvalRequestedToDialogMax: number;
}

/**
 * Drives the production web UI in Chromium against a gateway over a runtime with the product's
 * goal planning (metered, traced, redacted) and an in-process scripted model, `runs` times each
 * after one warm-up. The approval clock starts when the runtime emits `approval.requested`.
 */
export async function benchUiLatency(browser: Browser, runs: number): Promise<UiLatencyFigures> {
  const { rt, dispose } = await openBenchRuntime('ui-latency', { model: { provider: scriptedModel } });
  const token = randomBytes(24).toString('base64url');
  const gateway = await startWsGateway({ token, dispatcher: rt.dispatcher, bus: rt.bus, httpHandler: webUiHandler() });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(`${gateway.httpUrl}/#token=${token}`);
    await page.waitForSelector('[data-testid="state-empty"], [data-testid="task-list"]', WAIT);
    const toCard: number[] = [];
    const toDialog: number[] = [];
    for (let i = 0; i <= runs; i++) {
      const card = await goalToFirstStepCard(page, i);
      const dialog = await approvalToDialog(page, rt);
      if (i === 0) continue; // the warm-up compiles the views' code paths
      toCard.push(card);
      toDialog.push(dialog);
    }
    return {
      goalSubmittedToFirstStepCard: round(median(toCard)),
      goalSubmittedToFirstStepCardMax: round(Math.max(...toCard)),
      approvalRequestedToDialog: round(median(toDialog)),
      approvalRequestedToDialogMax: round(Math.max(...toDialog)),
    };
  } finally {
    await context.close();
    await gateway.close();
    await dispose();
  }
}

/** Types a goal in the composer as a user does; the clock runs from the click on Start to the first step card. */
async function goalToFirstStepCard(page: Page, run: number): Promise<number> {
  await page.evaluate(`window.location.hash = '#/new'`);
  await page.locator('[data-testid="goal"]').fill(`Write note.txt saying hi (${run})`);
  // A check given up front: no proposal round with the model before the first step.
  await page.locator('[data-testid="add-check"]').click();
  await page.locator('[data-testid="check-draft"] [data-field="path"]').fill('note.txt');
  const before = page.url();
  const started = process.hrtime.bigint();
  await page.locator('[data-testid="create-task"]').click();
  await page.waitForURL((url) => url.href !== before && url.hash.startsWith('#/task/'), WAIT);
  await page.locator('[data-testid="conversation"] .step-card').first().waitFor(WAIT);
  return elapsedMs(started);
}

/** A task started outside the page asks to delete; the clock runs from the runtime's `approval.requested` to the dialog shown. */
async function approvalToDialog(page: Page, rt: Pick<RuntimeCore, 'bus' | 'tasks' | 'engine'>): Promise<number> {
  await page.evaluate(`window.location.hash = '#/tasks'`);
  let requested: bigint | undefined;
  const off = rt.bus.on({ events: ['approval.requested'] }, () => (requested ??= process.hrtime.bigint()));
  try {
    const { task } = await rt.tasks.create({
      source: { kind: 'playbook', source: DELETE_PLAYBOOK, baseDir: os.tmpdir() },
      requester: { kind: 'local' },
      title: 'bench approval',
    });
    await rt.engine.start(task.id);
    await page.locator('[role="dialog"]').waitFor(WAIT);
    if (requested === undefined) throw new Error('the dialog showed before the runtime asked');
    const ms = elapsedMs(requested);
    await rt.engine.cancel(task.id, 'bench: measured'); // its approval is withdrawn and the dialog closes
    await page.locator('[role="dialog"]').waitFor({ state: 'detached', ...WAIT });
    return ms;
  } finally {
    off();
  }
}
