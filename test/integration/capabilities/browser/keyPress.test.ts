import { describe, expect, it } from 'vitest';
import { missing } from '../../../support/requirements.js';
import { waitForState, type TestRuntime } from '../../../support/runtime.js';
import { inlineTask, useBrowserRuntime } from './browserHarness.js';

const skip = missing('chromium');
const browser = useBrowserRuntime();

/** Opens the order form (its submit button relabelled), types an address, then the given steps. */
function orderFormTask(runtime: TestRuntime, label: string, then: string) {
  return inlineTask(
    runtime,
    `  - tool: browser.navigate
    args: { url: "\${services.pages.url}/order-form.html?label=${encodeURIComponent(label)}" }
  - tool: browser.fill
    args: { role: textbox, name: Address, value: 1 Main St }
${then}`,
  );
}

async function orderCount(runtime: TestRuntime, taskId: string): Promise<number> {
  const nav = (await runtime.rt.engine.steps(taskId)).find((s) => s.tool === 'browser.navigate')!.args as { url: string };
  const body = (await (await fetch(new URL('/orders', nav.url))).json()) as { count: number };
  return body.count;
}

describe.skipIf(skip)(`key presses that submit forms, in real Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  for (const label of ['Place order', '提交订单']) {
    it(`Enter in a field of a "${label}" form waits for approval with the button marked, and submits only after approve`, async () => {
      const h = browser.open();
      const task = await orderFormTask(
        h,
        label,
        `  - tool: browser.press
    args: { key: Enter }
  - tool: browser.wait_for
    args: { text: "Order placed #1" }
`,
      );
      await h.rt.engine.start(task.id);
      const waiting = await waitForState(h.rt, task.id, ['waiting_approval', 'failed', 'succeeded']);
      expect(waiting.state, waiting.stateReason).toBe('waiting_approval');
      const [approval] = await h.rt.approvals.list({ status: 'pending' });
      expect(approval).toMatchObject({ tool: 'browser.press', risks: ['payment'], rememberable: false });
      expect(approval!.preview.summary).toContain(`submits the form with button "${label}"`);
      expect(
        Buffer.from(approval!.preview.screenshot ?? '', 'base64')
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
      expect(await orderCount(h, task.id)).toBe(0);

      await h.rt.approvals.decide(approval!.id, { decision: 'approve', remember: 'once' }, 'test');
      const done = await waitForState(h.rt, task.id, ['succeeded', 'failed']);
      // wait_for "Order placed #1" passed: the form was submitted once, after the approval.
      expect(done.state, done.stateReason).toBe('succeeded');
    });
  }

  it('Space on the focused submit button counts as clicking it; denied, the order never happens', async () => {
    const h = browser.open();
    const task = await orderFormTask(
      h,
      'Place order',
      `  - tool: browser.press
    args: { key: Tab }
  - tool: browser.press
    args: { key: Space }
`,
    );
    await h.rt.engine.start(task.id);
    await waitForState(h.rt, task.id, ['waiting_approval']);
    const [approval] = await h.rt.approvals.list({ status: 'pending' });
    expect(approval!.preview.summary).toMatch(/press Space in button "Place order" activates button "Place order"/);
    await h.rt.approvals.decide(approval!.id, { decision: 'deny', remember: 'once', reason: 'no' }, 'test');
    const done = await waitForState(h.rt, task.id, ['failed']);
    expect(done.stateReason).toMatch(/denied by test: no/);
    expect((await h.rt.engine.steps(task.id)).map((s) => s.status)).toEqual(['completed', 'completed', 'completed', 'denied']);
  });

  it('Enter in an ordinary search form needs no approval', async () => {
    const h = browser.open();
    const task = await orderFormTask(
      h,
      'Place order',
      `  - tool: browser.press
    args: { role: textbox, name: Search, key: Enter }
  - tool: browser.wait_for
    args: { text: Searched }
`,
    );
    const done = await h.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect(await h.rt.approvals.list({})).toEqual([]);
  });

  it('Enter on a field named by CSS selector that would submit an order is refused, since the gate could not classify it', async () => {
    const h = browser.open();
    const task = await orderFormTask(
      h,
      'Place order',
      `  - tool: browser.press
    args: { selector: "input[name=address]", key: Enter }
`,
    );
    const done = await h.rt.engine.run(task.id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toMatch(/refused to press Enter: it submits the form with button "Place order", a payment target/);
  });
});
