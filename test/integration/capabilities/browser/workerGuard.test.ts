import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { BrowserHost } from '../../../../electron/capabilities/browser/browserHost.js';
import { missing } from '../../../support/requirements.js';
import { tempDir } from '../../../support/runtime.js';

// A Web Worker's WebSocket is invisible to the page's WebSocket routing: the task browser runs
// workers without WebSocket. The attack: a blob worker that sends what is typed to a socket.

const skip = missing('chromium');
const PAGE = `<!doctype html><title>workers</title><body><script>
  const results = {};
  const show = () => { document.title = JSON.stringify(results); };
  const blob = new Worker(URL.createObjectURL(new Blob([
    "let r; try { new WebSocket('ws://HOST/ws'); r = 'opened'; } catch (e) { r = 'blocked'; } postMessage(r);"
  ], { type: 'text/javascript' })));
  blob.onmessage = (e) => { results.blob = e.data; show(); };
  const fromSite = new Worker('/workers/site.js');
  fromSite.onmessage = (e) => { results.site = e.data; show(); };
</script></body>`;
const SITE_WORKER = `fetch('data.txt').then((r) => r.text()).then((text) => {
  let r; try { new WebSocket('ws://HOST/ws'); r = 'opened'; } catch (e) { r = 'blocked'; }
  postMessage(text + '|' + r);
});`;

let server: http.Server;
let sockets: WebSocketServer;
let origin = '';
let connections = 0;
const hosts: BrowserHost[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const host = new URL(origin).host;
    if (req.url === '/page.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE.replace('HOST', host));
    if (req.url === '/workers/site.js')
      return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(SITE_WORKER.replace('HOST', host));
    if (req.url === '/workers/data.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('relative-ok');
    res.writeHead(404).end();
  });
  sockets = new WebSocketServer({ server, path: '/ws' });
  sockets.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const host of hosts) await host.close();
  sockets?.close();
  server?.close();
});

describe.skipIf(skip)(`Web Workers in the task browser${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('a blob worker and a site worker get no WebSocket; the site worker still resolves its relative URLs', async () => {
    const host = new BrowserHost({ networkAllow: ['127.0.0.1:*'] });
    hosts.push(host);
    const session = await host.session(tempDir());
    await session.page.goto(`${origin}/page.html`);
    // Runs in the page (a string: the test project has no DOM types). The title is "workers"
    // until the first result shows: only JSON is read (a slow first look once threw on it).
    await session.page.waitForFunction(
      "(() => { const t = document.title; if (!t.startsWith('{')) return false; const r = JSON.parse(t); return r.blob !== undefined && r.site !== undefined; })()",
    );
    expect(JSON.parse(await session.page.title())).toEqual({ blob: 'blocked', site: 'relative-ok|blocked' });
    expect(connections).toBe(0);
  });
});
