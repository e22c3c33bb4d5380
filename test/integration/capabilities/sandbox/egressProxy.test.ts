import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopSandbox } from '../../../../electron/capabilities/sandbox/desktopSandbox.js';
import { EgressProxy } from '../../../../electron/capabilities/sandbox/egressProxy.js';
import { ensureEgressNetwork, EGRESS_NETWORK } from '../../../../electron/capabilities/sandbox/egressNetwork.js';
import { EgressSources } from '../../../../electron/capabilities/sandbox/egressSources.js';
import { compileWriteOrigins } from '../../../../electron/runtime/policy/effects/writeOrigins.js';
import { SandboxDriver } from '../../../../electron/capabilities/sandbox/sandboxDriver.js';
import { missing } from '../../../support/requirements.js';
import { desktopImage } from '../../../support/sandboxImage.js';

const skip = missing('docker');

// Runs in the sandbox: one request through the proxy (absolute-form or CONNECT), prints the status.
const viaProxy = (proxy: URL, target: string, connect: boolean) => `
const http = require('http');
const req = http.request({ host: '${proxy.hostname}', port: ${proxy.port}, method: ${connect ? "'CONNECT'" : "'GET'"}, path: '${target}' });
req.on(${connect ? "'connect'" : "'response'"}, (res) => { let b = ''; (res.on ? res : { on() {} }).on('data', (d) => (b += d)); setTimeout(() => { console.log(res.statusCode, b.trim()); process.exit(0); }, 200); });
req.on('error', (e) => { console.log('error', e.code); process.exit(0); });
req.end();`;

describe.skipIf(skip)('egress through the allowlisting proxy', () => {
  let driver: SandboxDriver;
  let sandbox: DesktopSandbox;
  let proxy: EgressProxy;
  let proxyUrl: URL;
  let allowedServer: http.Server;
  let allowedPort: number;
  const node = async (script: string) =>
    (await sandbox.call('exec.run', { command: ['node', '-e', script], timeoutMs: 20_000 })).stdout.trim();

  beforeAll(async () => {
    allowedServer = http.createServer((_req, res) => res.end('hello from an allowed host'));
    await new Promise<void>((r) => allowedServer.listen(0, '127.0.0.1', () => r()));
    allowedPort = (allowedServer.address() as AddressInfo).port;
    driver = new SandboxDriver({ image: await desktopImage(), owner: `test-egress-${process.pid}` });
    const gateway = await ensureEgressNetwork(driver.docker);
    proxy = new EgressProxy([`127.0.0.1:${allowedPort}`]);
    const port = await proxy.start(gateway);
    proxyUrl = new URL(`http://${gateway}:${port}`);
    sandbox = await driver.create({ limits: { network: EGRESS_NETWORK, proxy: proxyUrl.href.replace(/\/$/, '') } });
  }, 600_000);
  afterAll(async () => {
    await driver?.close();
    await proxy?.close();
    allowedServer?.close();
  });

  it('an allowlisted host answers through the proxy', async () => {
    expect(await node(viaProxy(proxyUrl, `http://127.0.0.1:${allowedPort}/`, false))).toBe('200 hello from an allowed host');
  });

  it('a domain outside the allowlist is refused, over plain HTTP and CONNECT', async () => {
    expect(await node(viaProxy(proxyUrl, 'http://deb.debian.org/debian/', false))).toMatch(
      /^403 deb\.debian\.org is not in the sandbox egress allowlist/,
    );
    expect(await node(viaProxy(proxyUrl, 'registry.npmjs.org:443', true))).toMatch(/^403/);
    expect(proxy.decisions.filter((d) => !d.allowed).map((d) => d.host)).toEqual(['deb.debian.org:80', 'registry.npmjs.org:443']);
  });

  it('there is no route around the proxy', async () => {
    const direct = await node(
      "const s = require('net').connect(80, '1.1.1.1'); s.on('connect', () => { console.log('open'); process.exit(0); });" +
        "s.on('error', (e) => { console.log('blocked', e.code); process.exit(0); }); setTimeout(() => { console.log('blocked timeout'); process.exit(0); }, 3000);",
    );
    expect(direct).toMatch(/^blocked/);
  });
});

/** One request through the proxy from the host (the proxy's rules need no container to be tried). */
function throughProxy(proxyPort: number, options: http.RequestOptions): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxyPort, ...options }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '' });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the egress proxy rules, hop by hop', () => {
  let proxy: EgressProxy;
  let proxyPort: number;
  let allowed: http.Server;
  let otherPort: http.Server;
  const reachedOther: string[] = [];
  const port = (s: http.Server) => (s.address() as AddressInfo).port;

  beforeAll(async () => {
    otherPort = http.createServer((req, res) => (reachedOther.push(req.url ?? ''), res.end('other port')));
    otherPort.on('upgrade', (req, socket) => (reachedOther.push(`upgrade ${req.url}`), socket.destroy()));
    await new Promise<void>((r) => otherPort.listen(0, '127.0.0.1', () => r()));
    allowed = http.createServer((req, res) => {
      if (req.url === '/hop') res.writeHead(302, { location: `http://127.0.0.1:${port(otherPort)}/stolen` }).end();
      else res.end('allowed');
    });
    allowed.on('upgrade', (_req, socket) => {
      socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      socket.destroy();
    });
    await new Promise<void>((r) => allowed.listen(0, '127.0.0.1', () => r()));
    // This process stands in for a task's desktop (its address is registered); the allowlisted
    // origin's writes are allowed, so only the allowlist decides here (the effect gate: egressGate.test.ts).
    const sources = new EgressSources(compileWriteOrigins([`http://127.0.0.1:${port(allowed)}`]));
    sources.register('127.0.0.1', { taskId: 'hop-test', humanAtControls: () => false });
    proxy = new EgressProxy([`127.0.0.1:${port(allowed)}`], sources);
    proxyPort = await proxy.start('127.0.0.1');
  });
  afterAll(async () => {
    await proxy.close();
    allowed.close();
    otherPort.close();
  });

  it('a redirect to the same host on another port is refused at the next hop, which never reaches it', async () => {
    const first = await throughProxy(proxyPort, { path: `http://127.0.0.1:${port(allowed)}/hop` });
    expect(first.status).toBe(302);
    const next = await throughProxy(proxyPort, { path: `http://127.0.0.1:${port(otherPort)}/stolen` });
    expect(next.status).toBe(403);
    expect(reachedOther).toEqual([]);
  });

  it('a WebSocket upgrade passes only to an allowlisted host:port', async () => {
    const ws = {
      Connection: 'Upgrade',
      Upgrade: 'websocket',
      'Sec-WebSocket-Version': '13',
      'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
    };
    expect((await throughProxy(proxyPort, { path: `http://127.0.0.1:${port(allowed)}/ws`, headers: ws })).status).toBe(101);
    expect((await throughProxy(proxyPort, { path: `http://127.0.0.1:${port(otherPort)}/ws`, headers: ws })).status).toBe(403);
    expect(reachedOther).toEqual([]);
  });

  it('a CONNECT without a port means 443, which a pattern with another port does not allow', async () => {
    const res = await new Promise<number>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port: proxyPort, method: 'CONNECT', path: '127.0.0.1' });
      req.on('connect', (r, socket) => (socket.destroy(), resolve(r.statusCode ?? 0)));
      req.on('response', (r) => resolve(r.statusCode ?? 0));
      req.end();
    });
    expect(res).toBe(403);
    expect(proxy.decisions.at(-1)).toMatchObject({ host: '127.0.0.1:443', allowed: false });
  });
});
