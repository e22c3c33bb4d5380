import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BrowserHost } from '../../../../electron/capabilities/browser/browserHost.js';
import { missing } from '../../../support/requirements.js';
import { waitForState, type TestRuntime } from '../../../support/runtime.js';
import { runtimeWithBrowser, useBrowserRuntime } from './browserHarness.js';
import { PagesServer, stepsTask } from './pagesServer.js';

const skip = missing('chromium');
const browser = useBrowserRuntime();
const hosts: BrowserHost[] = [];
const opened: TestRuntime[] = [];
let pages: PagesServer;
beforeAll(async () => {
  pages = await PagesServer.start();
});
beforeEach(async () => {
  await pages.reset();
});
afterAll(async () => {
  pages.stop();
  for (const h of opened) await h.cleanup();
  for (const host of hosts) await host.close();
});

/** A runtime whose browser has its own policy (allowWrites, a wider allowlist). */
function runtimeWith(options: { allowWrites?: string[]; networkAllow?: string[] }): TestRuntime {
  const host = new BrowserHost({
    networkAllow: options.networkAllow ?? [],
    ...(options.allowWrites && { allowWrites: options.allowWrites }),
  });
  hosts.push(host);
  const h = runtimeWithBrowser(host, ALLOW_PAGES);
  opened.push(h);
  return h;
}

/** The test's own pages server is allowlisted for navigation (a playbook service would be, too). */
const ALLOW_PAGES = { policy: { networkAllow: ['127.0.0.1:*'] } };

/** A playbook task from inline steps; `PAGES` in them is the pages server's URL. */
function inlineTask(h: TestRuntime, steps: string) {
  return stepsTask(h, steps.replaceAll('PAGES', pages.url));
}
const serverRecords = (_h: TestRuntime, _taskId: string) => pages.records();

const scripted = (then: string) => `  - tool: browser.navigate
    args: { url: "PAGES/scripted.html" }
${then}`;

describe.skipIf(skip)(`the browser effect gate, in real Chromium${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('a harmless "Save draft" whose script POSTs is held: the approval shows method, URL and fields; approved, it is sent exactly once', async () => {
    const h = browser.open(ALLOW_PAGES);
    const task = await inlineTask(
      h,
      scripted(`  - tool: browser.click
    args: { text: Save draft }
  - tool: browser.wait_for
    args: { text: sent 200 }
`),
    );
    await h.rt.engine.start(task.id);
    const waiting = await waitForState(h.rt, task.id, ['waiting_approval', 'failed', 'succeeded']);
    expect(waiting.state, waiting.stateReason).toBe('waiting_approval');
    const [approval] = await h.rt.approvals.list({ status: 'pending' });
    expect(approval).toMatchObject({ tool: 'browser.click', risks: ['write'], rememberable: false });
    expect(approval!.preview.effects).toEqual([
      expect.objectContaining({ kind: 'request', method: 'POST', url: expect.stringMatching(/\/api\/draft$/), fields: { text: 'hello' } }),
    ]);
    expect(approval!.preview.summary).toMatch(/the page sent POST http:\/\/127\.0\.0\.1:\d+\/api\/draft/);
    expect(
      Buffer.from(approval!.preview.screenshot ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect((await serverRecords(h, task.id)).count).toBe(0);

    await h.rt.approvals.decide(approval!.id, { decision: 'approve', remember: 'once' }, 'test');
    const done = await waitForState(h.rt, task.id, ['succeeded', 'failed']);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect((await serverRecords(h, task.id)).effects.map((e) => `${e.method} ${e.path}`)).toEqual(['POST /api/draft']);
  });

  it('a "Continue" whose script posts an amount and a card is a payment: masked in the approval, never sent when denied', async () => {
    const h = browser.open(ALLOW_PAGES);
    const task = await inlineTask(h, scripted(`  - tool: browser.click\n    args: { text: Continue }\n`));
    await h.rt.engine.start(task.id);
    await waitForState(h.rt, task.id, ['waiting_approval']);
    const [approval] = await h.rt.approvals.list({ status: 'pending' });
    expect(approval).toMatchObject({ risks: ['payment'], rememberable: false });
    const [effect] = approval!.preview.effects!;
    expect(effect).toMatchObject({ risk: 'payment', fields: { amount: '25', currency: 'EUR', card: '•••• 1111', cvc: '••••' } });
    expect(JSON.stringify(approval)).not.toContain('4111 1111');
    await h.rt.approvals.decide(approval!.id, { decision: 'deny', remember: 'once', reason: 'no' }, 'test');
    await waitForState(h.rt, task.id, ['failed', 'succeeded']);
    expect((await serverRecords(h, task.id)).count).toBe(0);
  });

  it("policy.allowWrites lets an origin's ordinary writes through without asking, never its payments", async () => {
    const h = runtimeWith({ allowWrites: ['http://127.0.0.1:*'] });
    const task = await inlineTask(
      h,
      scripted(`  - tool: browser.click
    args: { text: Save draft }
  - tool: browser.wait_for
    args: { text: sent 200 }
  - tool: browser.click
    args: { text: Continue }
`),
    );
    await h.rt.engine.start(task.id);
    await waitForState(h.rt, task.id, ['waiting_approval']);
    const pending = h.rt.approvals.list({ status: 'pending' });
    expect((await pending).map((a) => a.risks)).toEqual([['payment']]);
    expect((await serverRecords(h, task.id)).effects.map((e) => e.path)).toEqual(['/api/draft']);
    await h.rt.approvals.decide((await pending)[0]!.id, { decision: 'deny', remember: 'once' }, 'test');
    await waitForState(h.rt, task.id, ['failed', 'succeeded']);
  });

  it('a typed field a page script sends over a WebSocket is held: the server receives nothing', async () => {
    const h = browser.open(ALLOW_PAGES);
    const task = await inlineTask(
      h,
      scripted(`  - tool: browser.wait_for
    args: { selector: "#msg" }
  - tool: browser.fill
    args: { role: textbox, name: Message, value: meet at noon }
`),
    );
    await h.rt.engine.start(task.id);
    const waiting = await waitForState(h.rt, task.id, ['waiting_approval', 'failed', 'succeeded']);
    expect(waiting.state, waiting.stateReason).toBe('waiting_approval');
    const [approval] = await h.rt.approvals.list({ status: 'pending' });
    expect(approval!.preview.effects).toEqual([expect.objectContaining({ kind: 'websocket', method: 'WS', body: 'meet at noon' })]);
    await h.rt.approvals.decide(approval!.id, { decision: 'deny', remember: 'once' }, 'test');
    await waitForState(h.rt, task.id, ['failed', 'succeeded']);
    expect((await serverRecords(h, task.id)).effects).toEqual([]);
  });

  it('a request a page sends later, outside any agent action, is blocked and never sent', async () => {
    const h = browser.open(ALLOW_PAGES);
    const task = await inlineTask(
      h,
      scripted(`  - tool: browser.click
    args: { text: Refresh }
  - tool: browser.wait_for
    args: { text: "failed: Failed to fetch" }
`),
    );
    const done = await h.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect((await serverRecords(h, task.id)).count).toBe(0);
  });

  it('a keepalive fetch and a beacon a page sends while it unloads are blocked, never sent', async () => {
    const h = browser.open(ALLOW_PAGES);
    const task = await inlineTask(
      h,
      `  - tool: browser.navigate
    args: { url: "PAGES/leave.html" }
  - tool: browser.navigate
    args: { url: "PAGES/form.html" }
  - tool: browser.snapshot
    args: {}
`,
    );
    const done = await h.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await serverRecords(h, task.id)).effects).toEqual([]);
  });

  it('an allowlisted URL that redirects a navigation to another host is blocked at the hop', async () => {
    const h = browser.open(ALLOW_PAGES);
    const task = await inlineTask(
      h,
      `  - tool: browser.navigate
    args: { url: "PAGES/redirects.html" }
  - tool: browser.click
    args: { text: Read more }
`,
    );
    const done = await h.rt.engine.run(task.id);
    expect(done.state).toBe('failed');
    expect(done.stateReason).toMatch(
      /navigation to http:\/\/localhost:\d+\/form\.html blocked: redirect to .* not in the browser allowlist/,
    );
    expect((await serverRecords(h, task.id)).foreign).toEqual([]);
  });

  it('an image and an EventSource whose allowlisted URL redirects to another host never reach it', async () => {
    const h = browser.open(ALLOW_PAGES);
    const task = await inlineTask(
      h,
      `  - tool: browser.navigate
    args: { url: "PAGES/redirects.html" }
  - tool: browser.snapshot
    args: {}
`,
    );
    const done = await h.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    const blocked = ((await h.rt.engine.steps(task.id)).at(-1)!.output as { blocked: { url: string }[] }).blocked.map(
      (b) => new URL(b.url).pathname,
    );
    expect(blocked).toEqual(expect.arrayContaining(['/pixel.png']));
    expect((await serverRecords(h, task.id)).foreign).toEqual([]);
  });

  it('a 307 that carries a POST to another origin is blocked at the hop, even when both hosts are allowlisted', async () => {
    const h = runtimeWith({ networkAllow: ['127.0.0.1:*', 'localhost:*'], allowWrites: ['http://127.0.0.1:*', 'http://localhost:*'] });
    const task = await inlineTask(
      h,
      scripted(`  - tool: browser.click
    args: { text: Sync }
  - tool: browser.wait_for
    args: { text: "failed: Failed to fetch" }
`),
    );
    const done = await h.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    const records = await serverRecords(h, task.id);
    expect(records.foreign).toEqual([]);
    expect(records.effects.map((e) => e.path)).toEqual(['/redirect-307']);
  });

  it('service workers are blocked: a page cannot register one to act outside the routing', async () => {
    const h = browser.open(ALLOW_PAGES);
    const task = await inlineTask(
      h,
      `  - tool: browser.navigate
    args: { url: "PAGES/sw.html" }
  - tool: browser.extract_text
    args: { selector: "#status" }
`,
    );
    const done = await h.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect(((await h.rt.engine.steps(task.id)).at(-1)!.output as { text: string }).text).not.toBe('registered');
  });

  it('a harmless GET page read needs no approval and records no effect', async () => {
    const h = browser.open(ALLOW_PAGES);
    const task = await inlineTask(
      h,
      `  - tool: browser.navigate
    args: { url: "PAGES/checkout.html" }
  - tool: browser.click
    args: { text: Update basket }
  - tool: browser.extract_text
    args: { selector: "#note" }
`,
    );
    const done = await h.rt.engine.run(task.id);
    expect(done.state, done.stateReason).toBe('succeeded');
    expect(await h.rt.approvals.list({})).toEqual([]);
    expect((await serverRecords(h, task.id)).count).toBe(0);
  });
});
