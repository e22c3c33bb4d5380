import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EgressProxy } from '../../../../electron/capabilities/sandbox/egressProxy.js';
import { EgressSources, type SandboxEffects } from '../../../../electron/capabilities/sandbox/egressSources.js';
import { compileWriteOrigins } from '../../../../electron/runtime/policy/effects/writeOrigins.js';

// The egress proxy's effect gate over real sockets: this process stands in for a task's desktop
// (127.0.0.1 is registered as its address; 127.0.0.2 is nobody's), a recording shop and a
// recording "evil" host count what reached them. The desktop's own Chromium: test/e2e/sandbox/egressGate.test.ts.

interface Answer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

function through(
  proxyPort: number,
  o: { method?: string; url: string; body?: string; headers?: Record<string, string>; from?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: proxyPort,
        method: o.method ?? 'GET',
        path: o.url,
        headers: o.headers,
        ...(o.from && { localAddress: o.from }),
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}

function connect(proxyPort: number, target: string): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port: proxyPort, method: 'CONNECT', path: target });
    req.on('connect', (res, socket) => (socket.destroy(), resolve({ status: res.statusCode ?? 0, body: '', headers: res.headers })));
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.end();
  });
}

/** Opens a tunnel through the proxy, then sends `bytes` inside it; resolves with what came back. */
function insideTunnel(proxyPort: number, target: string, bytes: Buffer | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(proxyPort, '127.0.0.1', () => socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`));
    let got = '';
    let established = false;
    socket.on('data', (d: Buffer) => {
      got += d.toString('latin1');
      if (!established && got.includes('\r\n\r\n')) {
        established = true;
        got = '';
        socket.write(bytes);
      }
    });
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => socket.end());
  });
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', 'sec-fetch-dest': 'document' };
const FETCH = { 'content-type': 'application/json', accept: '*/*', 'sec-fetch-dest': 'empty' };

/** A proxy allowing only the shop, with one registered desktop (this host) whose actions it gates. */
async function gatedProxy(
  shopPort: number,
): Promise<{ own: ReturnType<EgressSources['register']>; strict: EgressProxy; strictPort: number }> {
  const sources = new EgressSources();
  const own = sources.register('127.0.0.1', { taskId: 't', humanAtControls: () => false });
  const strict = new EgressProxy([`127.0.0.1:${shopPort}`], sources);
  return { own, strict, strictPort: await strict.start('127.0.0.1') };
}

describe('the egress proxy holds what a task desktop sends', () => {
  let shop: http.Server;
  let evil: http.Server;
  const orders: string[] = [];
  const reachedEvil: string[] = [];
  const upgrades: string[] = [];
  let proxy: EgressProxy;
  let proxyPort: number;
  let desktop: SandboxEffects;
  const port = (s: http.Server) => (s.address() as AddressInfo).port;
  const shopUrl = (path: string) => `http://127.0.0.1:${port(shop)}${path}`;

  beforeAll(async () => {
    evil = http.createServer((req, res) => (reachedEvil.push(`${req.method} ${req.url}`), res.end('got it')));
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', () => r()));
    shop = http.createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      if (req.url === '/hop') return void res.writeHead(307, { location: `http://127.0.0.1:${port(evil)}/collect` }).end();
      if (req.method === 'POST') orders.push(`${req.url} ${body}`);
      res.end('ok');
    });
    shop.on('upgrade', (req, socket: net.Socket) => (upgrades.push(req.url ?? ''), socket.destroy()));
    await new Promise<void>((r) => shop.listen(0, '127.0.0.1', () => r()));
    // The shop's /hop writes are allowed by config, so the redirect's next hop is what is tried.
    const sources = new EgressSources(compileWriteOrigins([`http://127.0.0.1:${port(shop)}`]));
    desktop = sources.register('127.0.0.1', { taskId: 'shop-task', humanAtControls: () => false });
    proxy = new EgressProxy([`127.0.0.1:${port(shop)}`, '*.stripe.com:443'], sources);
    proxyPort = await proxy.start('127.0.0.1');
  });
  afterAll(async () => {
    await proxy.close();
    shop.close();
    evil.close();
  });
  beforeEach(() => {
    orders.length = 0;
    reachedEvil.length = 0;
  });

  it('a form POST during an action is held (204, the page stays), the shop gets nothing, the action gets method, URL and fields', async () => {
    const { own, strict, strictPort } = await gatedProxy(port(shop));
    try {
      own.open(undefined, shopUrl(''));
      const held = await through(strictPort, {
        method: 'POST',
        url: shopUrl('/order'),
        headers: FORM,
        body: 'item=lamp&card_number=4242424242424242',
      });
      expect(held.status).toBe(204);
      const effects = await own.close();
      expect(orders).toEqual([]);
      expect(effects).toEqual([
        expect.objectContaining({
          method: 'POST',
          url: shopUrl('/order'),
          risk: 'payment',
          fields: { item: 'lamp', card_number: '•••• 4242' },
        }),
      ]);

      own.open({ risks: ['payment'], effects }, shopUrl(''));
      const again = { method: 'POST', url: shopUrl('/order'), headers: FORM, body: 'item=lamp&card_number=4242424242424242' };
      expect((await through(strictPort, again)).status).toBe(200);
      expect((await through(strictPort, again)).status, 'a second copy is held again').toBe(204);
      expect((await own.close()).map((e) => e.method)).toEqual(['POST']);
      expect(orders).toEqual(['/order item=lamp&card_number=4242424242424242']);

      const late = await through(strictPort, { method: 'POST', url: shopUrl('/order'), headers: FETCH, body: '{"item":"lamp"}' });
      expect(late.status, 'outside any action: refused').toBe(403);
      expect(late.body).toMatch(/outside any agent action/);
      expect(orders).toHaveLength(1);
    } finally {
      await strict.close();
    }
  });

  it('a fetch POST from a page script after a click is held with 403, and nothing reaches the shop', async () => {
    const { own, strict, strictPort } = await gatedProxy(port(shop));
    try {
      own.open(undefined, shopUrl(''));
      const held = await through(strictPort, {
        method: 'POST',
        url: shopUrl('/api/orders'),
        headers: FETCH,
        body: '{"amount":"99","currency":"EUR"}',
      });
      expect(held.status).toBe(403);
      expect(held.headers['x-agent-desk-held']).toBe('hold');
      expect((await own.close())[0]).toMatchObject({ kind: 'request', risk: 'payment', fields: { amount: '99', currency: 'EUR' } });
      expect(orders).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  it('a 307 hop that carries an allowed POST to a host outside the allowlist never reaches it', async () => {
    desktop.open(undefined, shopUrl(''));
    const first = await through(proxyPort, { method: 'POST', url: shopUrl('/hop'), headers: FORM, body: 'note=hello' });
    expect(first.status).toBe(307);
    const next = await through(proxyPort, { method: 'POST', url: first.headers.location!, headers: FORM, body: 'note=hello' });
    expect(next.status).toBe(403);
    await desktop.close();
    expect(reachedEvil).toEqual([]);
  });

  it('a tunnel to a payment provider is held during an action and refused outside one; other tunnels stay opaque', async () => {
    desktop.open(undefined, shopUrl(''));
    const held = await connect(proxyPort, 'checkout.stripe.com:443');
    expect(held.status).toBe(403);
    expect((await desktop.close()).map((e) => `${e.method} ${e.url} ${e.risk}`)).toEqual([
      'CONNECT https://checkout.stripe.com:443/ payment',
    ]);
    expect((await connect(proxyPort, 'checkout.stripe.com:443')).status).toBe(403);
    expect(proxy.decisions.filter((d) => d.method === 'CONNECT' && d.effect).map((d) => d.effect)).toEqual(['hold', 'refuse']);
    expect((await connect(proxyPort, `127.0.0.1:${port(shop)}`)).status, 'an allowlisted tunnel elsewhere is opaque: it passes').toBe(200);
  });

  it('a WebSocket tunnelled through CONNECT (as Chromium sends ws:// through a proxy) meets the gate; a TLS tunnel stays opaque', async () => {
    const { own, strict, strictPort } = await gatedProxy(port(shop));
    const target = `127.0.0.1:${port(shop)}`;
    const handshake = `GET /ws HTTP/1.1\r\nHost: ${target}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`;
    try {
      expect(await insideTunnel(strictPort, target, handshake)).toMatch(/^HTTP\/1\.1 403[\s\S]*X-Agent-Desk-Held: refuse/);
      own.open(undefined, shopUrl(''));
      expect(await insideTunnel(strictPort, target, handshake)).toMatch(/X-Agent-Desk-Held: hold/);
      expect((await own.close()).map((e) => `${e.kind} ${e.url}`)).toEqual([`websocket ws://${target}/ws`]);
      expect(await insideTunnel(strictPort, target, 'POST /order HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n')).toMatch(/403/);
      expect(upgrades).toEqual([]);
      expect(orders).toEqual([]);
      // A TLS record goes through untouched (the shop, which speaks no TLS, answers it 400).
      expect(await insideTunnel(strictPort, target, Buffer.from([0x16, 0x03, 0x01, 0x00, 0x05, 1, 2, 3, 4, 5]))).toMatch(/^HTTP\/1\.1 400/);
    } finally {
      await strict.close();
    }
  });

  it('closing the proxy ends the tunnels still open (a WebSocket kept open must not hold the runtime)', async () => {
    const silent = net.createServer((socket) => socket.on('error', () => undefined));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const target = `127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const own = new EgressProxy([target]);
    const ownPort = await own.start('127.0.0.1');
    const ended = insideTunnel(ownPort, target, Buffer.from([0x16, 0x03, 0x01, 0x00, 0x01, 0x00]));
    await expect.poll(() => own.decisions.length).toBe(1);
    await own.close();
    expect(await ended).toBe('');
    silent.close();
  });

  it('closing the proxy ends open tunnels toward a server that keeps its half open (a killed sandbox never says goodbye)', async () => {
    let upstreamClosed = false;
    // Half-open and reading, as an HTTP server's upgraded WebSocket socket is: a FIN alone would not close it.
    const keeper = net.createServer({ allowHalfOpen: true }, (socket) =>
      socket
        .on('close', () => (upstreamClosed = true))
        .on('error', () => undefined)
        .resume(),
    );
    await new Promise<void>((r) => keeper.listen(0, '127.0.0.1', () => r()));
    const target = `127.0.0.1:${(keeper.address() as AddressInfo).port}`;
    const own = new EgressProxy([target]);
    const ownPort = await own.start('127.0.0.1');
    const client = net.connect(ownPort, '127.0.0.1', () => client.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`));
    client.on('error', () => undefined);
    client.once('data', () => client.write(Buffer.from([0x16, 0x03, 0x01, 0x00, 0x01, 0x00])));
    await expect.poll(() => own.decisions.length).toBe(1);
    await own.close();
    await expect.poll(() => upstreamClosed).toBe(true);
    client.destroy();
    keeper.close();
  });

  it("a request from an address that is no task's desktop gets no write through", async () => {
    const other = await through(proxyPort, { method: 'POST', url: shopUrl('/order'), headers: FORM, body: 'item=lamp', from: '127.0.0.2' });
    expect(other.status).toBe(403);
    expect(other.body).toMatch(/no task's desktop/);
    const read = await through(proxyPort, { url: shopUrl('/list'), from: '127.0.0.2' });
    expect(read.status, 'reads still follow the allowlist').toBe(200);
    expect(orders).toEqual([]);
  });
});
