import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventFrame } from '../../../electron/contract/index.js';
import { missing } from '../../support/requirements.js';
import { createPlaybookTask, waitForState, type TestRuntime } from '../../support/runtime.js';
import { desktopContainers, desktopImage, openDesktopRuntime } from '../../support/sandboxImage.js';

const skip = missing('docker');

const SHOP = `name: shop
steps:
  - tool: sandbox.write_file
    args:
      path: shop.html
      content: |
        <!doctype html><meta charset="utf-8"><title>Cart</title>
        <style>button { position: fixed; left: 0; width: 100vw; height: 40vh; font-size: 40px; }</style>
        <button id="more" style="top: 0" onclick="document.title='more'">Add another</button>
        <button id="order" style="top: 50vh" onclick="document.title='ordered'">提交订单 Place order</button>
  - tool: sandbox.browser_open
    args: { url: "file:///home/agent/shop.html" }
  - tool: computer
    args: { action: click, x: 640, y: 650 }
acceptance:
  - { type: command_exit, command: [test, -f, shop.html], sandbox: true }
`;

const SPINNER = `name: spinner
steps:
  - tool: sandbox.write_file
    args:
      path: spin.html
      content: |
        <!doctype html><title>Busy</title>
        <style>@keyframes spin { to { transform: rotate(360deg); } } #s { width: 300px; height: 300px; background: #c00; animation: spin 1s linear infinite; }</style>
        <div id="s"></div><div id="d" style="font-size:80px">0</div>
        <script>let i = 0; setInterval(() => { document.getElementById('d').textContent = ++i; }, 16);</script>
  - tool: sandbox.browser_open
    args: { url: "file:///home/agent/spin.html" }
  - tool: computer
    args: { action: wait, timeoutMs: 60000 }
`;

const SIZE = `name: size
steps:
  - tool: sandbox.write_file
    args:
      path: size.html
      content: |
        <!doctype html><title>size</title>
        <script>addEventListener('load', () => { document.title = innerWidth + 'x' + innerHeight + ' of ' + screen.width + 'x' + screen.height; });</script>
  - tool: sandbox.browser_open
    args: { url: "file:///home/agent/size.html" }
`;

describe.skipIf(skip)('GUI tasks in a runtime (real containers)', () => {
  let h: TestRuntime;
  let image: string;

  beforeAll(async () => {
    image = await desktopImage();
  }, 600_000);

  function open(): TestRuntime {
    h = openDesktopRuntime(image).h;
    return h;
  }
  const containers = () => desktopContainers(h.home);

  afterEach(async () => {
    await h?.cleanup();
  });

  it('a click on 提交订单 waits for approval with the target marked, runs once approved, and the sandbox goes', async () => {
    open();
    const frames: EventFrame[] = [];
    h.rt.bus.on({ events: ['screen.frame'] }, (f) => frames.push(f));
    const task = await createPlaybookTask(h.rt, SHOP);
    const run = h.rt.engine.run(task.id);
    await waitForState(h.rt, task.id, ['waiting_approval'], 120_000);
    const [approval] = await h.rt.approvals.list({ taskId: task.id, status: 'pending' });
    expect(approval).toMatchObject({ tool: 'computer', risks: ['payment'], rememberable: false });
    expect(approval!.preview.summary).toMatch(/提交订单/);
    expect(approval!.preview.summary).toMatch(/payment/);
    expect(
      Buffer.from(approval!.preview.screenshot ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect(await containers()).toHaveLength(1);
    await h.rt.approvals.decide(approval!.id, { decision: 'approve', remember: 'once' }, 'test');
    const done = await run;
    expect(done.state).toBe('succeeded');
    expect(frames.length).toBeGreaterThan(0);
    expect(frames[0]!.data).toMatchObject({ taskId: task.id, format: 'jpeg' });
    await waitForState(h.rt, task.id, ['succeeded']);
    await expect.poll(containers, { timeout: 20_000 }).toEqual([]);
  }, 180_000);

  it("the desktop's browser fills the screen (no strip of desktop beside it)", async () => {
    open();
    const task = await createPlaybookTask(h.rt, SIZE);
    expect((await h.rt.engine.run(task.id)).state).toBe('succeeded');
    const opened = (await h.rt.engine.steps(task.id)).find((s) => s.tool === 'sandbox.browser_open')!;
    const title = (opened.output as { title: string }).title;
    // The page's viewport, not window.outerWidth: Chromium reports 0 for it on some loads.
    const [, w, h2, sw, sh] = (/^(\d+)x(\d+) of (\d+)x(\d+)$/.exec(title) ?? []).map(Number);
    expect(w, title).toBe(sw);
    // Below the tab strip and toolbar (under 120 px), the page reaches the bottom of the screen.
    expect(sh! - h2!, title).toBeGreaterThan(0);
    expect(sh! - h2!, title).toBeLessThan(120);
  }, 180_000);

  it('cancelling a GUI task destroys its sandbox', async () => {
    open();
    const task = await createPlaybookTask(h.rt, SPINNER);
    const run = h.rt.engine.run(task.id);
    await expect.poll(async () => (await containers()).length, { timeout: 120_000 }).toBe(1);
    await expect.poll(async () => (await h.rt.engine.get(task.id)).usage.steps, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
    await h.rt.engine.cancel(task.id);
    expect((await run).state).toBe('cancelled');
    await expect.poll(containers, { timeout: 20_000 }).toEqual([]);
  }, 180_000);
});
