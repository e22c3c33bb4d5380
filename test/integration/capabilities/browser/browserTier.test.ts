import { existsSync, readFileSync } from 'node:fs';
import { pollUntil } from '../../../support/poll.js';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { missing } from '../../../support/requirements.js';
import { waitForState, type TestRuntime } from '../../../support/runtime.js';
import { fixtureTask, inlineTask, useBrowserRuntime } from './browserHarness.js';

const skip = missing('chromium');
const browser = useBrowserRuntime();

describe.skipIf(skip)(`browser tier in real Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('a playbook fills a form, extracts the result as untrusted text, and an acceptance check verifies it', async () => {
    const h = browser.open();
    const task = await fixtureTask(h, 'browser-quote.yaml');
    const done = await h.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect(readFileSync(path.join(done.workspace, 'quote.txt'), 'utf8')).toBe('Quote for Ada: 75 EUR');
    const steps = await h.rt.engine.steps(task.id);
    expect(steps.map((s) => s.route?.tier)).toContain('browser');
    expect(steps.find((s) => s.tool === 'browser.extract_text')?.output).toMatchObject({
      untrusted: true,
      notice: expect.stringContaining('never instructions'),
    });
  });

  it('a link to a host outside the allowlist is blocked by request interception, with the reason in the trace', async () => {
    const h = browser.open();
    const task = await fixtureTask(h, 'browser-blocked.yaml');
    const done = await h.rt.engine.run(task.id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toMatch(
      /navigation to http:\/\/localhost:\d+\/form.html blocked: host localhost:\d+ is not in the browser allowlist/,
    );
    const failed = (await h.rt.trace.page(task.id, 0, 500)).events.find((e) => e.type === 'step.failed');
    expect(failed?.data).toMatchObject({ tool: 'browser.click', error: expect.stringContaining('not in the browser allowlist') });
  });

  for (const button of ['Place order', '提交订单']) {
    it(`a "${button}" click waits for approval with the target marked, and happens only after approve`, async () => {
      const h = browser.open();
      const task = await fixtureTask(h, 'browser-order.yaml', { button });
      await h.rt.engine.start(task.id);
      const waiting = await waitForState(h.rt, task.id, ['waiting_approval', 'failed', 'succeeded']);
      expect(waiting.state, waiting.stateReason).toBe('waiting_approval');
      const [approval] = await h.rt.approvals.list({ status: 'pending' });
      expect(approval).toMatchObject({ tool: 'browser.click', risks: ['payment'], rememberable: false });
      expect(approval!.preview.summary).toContain(`button "${button}"`);
      const png = Buffer.from(approval!.preview.screenshot ?? '', 'base64');
      expect(png.subarray(1, 4).toString()).toBe('PNG');

      // Nothing was ordered while waiting: the click has not happened.
      const services = (await h.rt.engine.steps(task.id)).find((s) => s.tool === 'browser.navigate')!.args as { url: string };
      const ordersUrl = new URL('/orders', services.url).href;
      expect(await (await fetch(ordersUrl)).json()).toMatchObject({ count: 0 });

      await h.rt.approvals.decide(approval!.id, { decision: 'approve', remember: 'once' }, 'test');
      const done = await waitForState(h.rt, task.id, ['succeeded', 'failed']);
      expect(done.state, done.stateReason).toBe('succeeded');
    });
  }

  it('a denied order click never happens', async () => {
    const h = browser.open();
    const task = await fixtureTask(h, 'browser-order.yaml');
    await h.rt.engine.start(task.id);
    await waitForState(h.rt, task.id, ['waiting_approval']);
    const [approval] = await h.rt.approvals.list({ status: 'pending' });
    await h.rt.approvals.decide(approval!.id, { decision: 'deny', remember: 'once', reason: 'not today' }, 'test');
    const done = await waitForState(h.rt, task.id, ['failed']);
    expect(done.stateReason).toMatch(/denied by test: not today/);
    const clicks = (await h.rt.engine.steps(task.id)).filter((s) => s.tool === 'browser.click');
    expect(clicks.map((s) => s.status)).toEqual(['completed', 'denied']);
  });

  it('a risky element reached by CSS selector is refused, since the gate could not classify it', async () => {
    const h = browser.open();
    const task = await inlineTask(
      h,
      `  - tool: browser.navigate
    args: { url: "\${services.pages.url}/checkout.html" }
  - tool: browser.click
    args: { selector: "#order" }
`,
    );
    const done = await h.rt.engine.run(task.id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toMatch(/refused to click button "Place order": it is a payment target/);
  });

  it('a download is saved inside the task workspace', async () => {
    const h = browser.open();
    const task = await inlineTask(
      h,
      `  - tool: browser.navigate
    args: { url: "\${services.pages.url}/form.html" }
  - tool: browser.click
    args: { text: Download report }
  - tool: browser.snapshot
    args: {}
`,
    );
    const done = await h.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    const file = path.join(done.workspace, 'downloads', 'report.csv');
    await pollUntil('the download in the workspace', () => (existsSync(file) ? true : undefined));
    expect(readFileSync(file, 'utf8')).toContain('SKU-1');
  });
});
