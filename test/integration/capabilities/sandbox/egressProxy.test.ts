import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopSandbox } from '../../../../electron/capabilities/sandbox/desktopSandbox.js';
import { EgressProxy } from '../../../../electron/capabilities/sandbox/egressProxy.js';
import { ensureEgressNetwork, EGRESS_NETWORK } from '../../../../electron/capabilities/sandbox/egressNetwork.js';
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
    expect(proxy.decisions.filter((d) => !d.allowed).map((d) => d.host)).toEqual(['deb.debian.org', 'registry.npmjs.org:443']);
  });

  it('there is no route around the proxy', async () => {
    const direct = await node(
      "const s = require('net').connect(80, '1.1.1.1'); s.on('connect', () => { console.log('open'); process.exit(0); });" +
        "s.on('error', (e) => { console.log('blocked', e.code); process.exit(0); }); setTimeout(() => { console.log('blocked timeout'); process.exit(0); }, 3000);",
    );
    expect(direct).toMatch(/^blocked/);
  });
});
