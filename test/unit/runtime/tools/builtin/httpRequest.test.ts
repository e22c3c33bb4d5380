import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequestTool, type HttpRequestOutput } from '../../../../../electron/runtime/tools/builtin/httpRequest.js';
import { rejectionOf, runTool, toolContext } from './workspaceFixture.js';

interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let base: string;
/** The same host on another port: another origin, whose own log counts what reached it. */
let otherPort: http.Server;
const otherSeen: string[] = [];
const seen: SeenRequest[] = [];

/** A small real server: each path is one behaviour the tests need. */
function handle(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
  seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
  switch (req.url) {
    case '/json':
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'X-Trace': 'abc' });
      res.end(JSON.stringify({ items: [1, 2, 3] }));
      return;
    case '/messages':
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: 'm1', received: JSON.parse(body) as unknown }));
      return;
    case '/missing':
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('no such thing');
      return;
    case '/large':
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('a'.repeat(64 * 1024));
      res.end('b'.repeat(64 * 1024));
      return;
    case '/hang':
      return; // never answers
    case '/stalled-body':
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('partial');
      return; // never finishes the body
    case '/redirect-same':
      res.writeHead(302, { Location: '/json' });
      res.end();
      return;
    case '/redirect-other-port':
      res.writeHead(302, { Location: `http://127.0.0.1:${(otherPort.address() as AddressInfo).port}/json` });
      res.end();
      return;
    case '/redirect-away':
      res.writeHead(302, { Location: 'http://elsewhere.invalid/json' });
      res.end();
      return;
    default:
      res.writeHead(200);
      res.end('ok');
  }
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  otherPort = http.createServer((req, res) => (otherSeen.push(req.url ?? ''), res.end('other')));
  await new Promise<void>((resolve) => otherPort.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  otherPort.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => otherPort.close(resolve));
});

const request = (args: unknown, ctx = toolContext('/unused')) => runTool<unknown, HttpRequestOutput>(httpRequestTool, args, ctx);
const lastSeen = () => seen[seen.length - 1]!;

describe('http.request', () => {
  it('a GET of a JSON resource returns status, lower-cased headers, body and parsed json', async () => {
    const result = await request({ url: `${base}/json` });
    expect(result).toMatchObject({ url: `${base}/json`, status: 200, ok: true, json: { items: [1, 2, 3] }, truncated: false });
    expect(result.headers['x-trace']).toBe('abc');
    expect(result.headers['content-type']).toContain('application/json');
    expect(result.body).toBe('{"items":[1,2,3]}');
    expect(result.bytes).toBe(17);
  });

  it('a POST with idempotencyKey carries the step key and sends objects as JSON', async () => {
    const ctx = toolContext('/unused', { idempotencyKey: 'task-9:step-4' });
    const result = await request({ method: 'POST', url: `${base}/messages`, body: { text: 'hi' }, idempotencyKey: true }, ctx);
    expect(result.status).toBe(201);
    expect(result.json).toEqual({ id: 'm1', received: { text: 'hi' } });
    expect(lastSeen().headers['idempotency-key']).toBe('task-9:step-4');
    expect(lastSeen().headers['content-type']).toBe('application/json');
  });

  it('a POST without idempotencyKey sends no Idempotency-Key header', async () => {
    await request({ method: 'POST', url: `${base}/messages`, body: '{"a":1}', headers: { 'Content-Type': 'text/plain' } });
    expect(lastSeen().headers['idempotency-key']).toBeUndefined();
    expect(lastSeen().headers['content-type']).toBe('text/plain');
  });

  it('a 404 is returned as a result, not thrown', async () => {
    const result = await request({ url: `${base}/missing` });
    expect(result).toMatchObject({ status: 404, ok: false, body: 'no such thing' });
    expect(result.json).toBeUndefined();
  });

  it('a body larger than maxBytes is cut there and marked truncated', async () => {
    const result = await request({ url: `${base}/large`, maxBytes: 1000 });
    expect(result.bytes).toBe(1000);
    expect(result.body).toBe('a'.repeat(1000));
    expect(result.truncated).toBe(true);
  });

  it('a server that never answers times out, retryable for a GET', async () => {
    const error = await rejectionOf(request({ url: `${base}/hang`, timeoutMs: 200 }));
    expect(error.message).toBe(`GET ${base}/hang timed out after 200 ms`);
    expect(error.code).toBe('timeout');
    expect(error.retryable).toBe(true);
  });

  it('the timeout also covers a body that stops arriving', async () => {
    const error = await rejectionOf(request({ url: `${base}/stalled-body`, timeoutMs: 300 }));
    expect(error.code).toBe('timeout');
  });

  it('a timed-out POST without idempotency key is not retryable (it may have happened)', async () => {
    const error = await rejectionOf(request({ method: 'POST', url: `${base}/hang`, body: 'x', timeoutMs: 200 }));
    expect(error.code).toBe('timeout');
    expect(error.retryable).toBe(false);
  });

  it('pausing the task aborts the request through ctx.signal', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const error = await rejectionOf(request({ url: `${base}/hang` }, toolContext('/unused', { signal: controller.signal })));
    expect(error.code).toBe('aborted');
    expect(error.message).toContain('was cancelled');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('connection refused is retryable: the request was never sent', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await rejectionOf(request({ method: 'POST', url: `http://127.0.0.1:${port}/x`, body: 'x' }));
    expect(error.code).toBe('connection_failed');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('an invalid or non-http URL fails without retry', async () => {
    for (const url of ['not a url', 'ftp://example.com/file']) {
      const error = await rejectionOf(request({ url }));
      expect(error.code).toBe('invalid_url');
      expect(error.retryable).toBe(false);
    }
  });

  it('a redirect to the same host is followed', async () => {
    const result = await request({ url: `${base}/redirect-same` });
    expect(result).toMatchObject({ url: `${base}/json`, status: 200 });
  });

  it('a redirect to another host is returned, not followed past the approved host', async () => {
    const result = await request({ url: `${base}/redirect-away` });
    expect(result.status).toBe(302);
    expect(result.headers.location).toBe('http://elsewhere.invalid/json');
  });

  it('a redirect to the same host on another port is another origin: returned, never reached', async () => {
    const result = await request({ url: `${base}/redirect-other-port` });
    expect(result.status).toBe(302);
    expect(otherSeen).toEqual([]);
  });

  it('a GET with a body is rejected by the schema at args.body', () => {
    const parsed = httpRequestTool.input.safeParse({ url: `${base}/json`, body: 'x' });
    expect(parsed.error?.issues.map((i) => i.path)).toEqual([['body']]);
  });
});

describe('http.request classification', () => {
  const classify = (args: unknown) => httpRequestTool.classify(httpRequestTool.input.parse(args), { workspace: '/unused' });

  it('a GET is read-only external_http on host:port', () => {
    expect(classify({ url: 'https://api.example.com/v1/items?q=1' })).toEqual({
      risks: ['external_http'],
      subject: 'https://api.example.com/v1/items?q=1',
      readOnly: true,
      idempotent: true,
      insideWorkspace: false,
      host: 'api.example.com:443',
      preview: {
        summary: 'GET https://api.example.com/v1/items?q=1',
        summaryText: { code: 'preview.http', params: { method: 'GET', url: 'https://api.example.com/v1/items?q=1' } },
      },
    });
  });

  it('a POST is a send, idempotent only with idempotencyKey, previewing its body', () => {
    const call = classify({ method: 'POST', url: 'http://127.0.0.1:8080/messages', body: { text: 'hi' } });
    expect(call).toMatchObject({ risks: ['external_http', 'send'], readOnly: false, idempotent: false, host: '127.0.0.1:8080' });
    expect(call.preview).toEqual({
      summary: 'POST http://127.0.0.1:8080/messages',
      summaryText: { code: 'preview.http', params: { method: 'POST', url: 'http://127.0.0.1:8080/messages' } },
      body: '{"text":"hi"}',
    });
    expect(classify({ method: 'POST', url: 'http://h/', idempotencyKey: true }).idempotent).toBe(true);
  });

  it('PUT and DELETE are sends that are idempotent by method', () => {
    expect(classify({ method: 'PUT', url: 'http://h/x', body: 'x' })).toMatchObject({
      idempotent: true,
      risks: ['external_http', 'send'],
      host: 'h:80',
    });
    expect(classify({ method: 'DELETE', url: 'http://h/x' })).toMatchObject({ idempotent: true, readOnly: false });
  });

  it('a long request body is previewed up to about 4 KB', () => {
    const call = classify({ method: 'POST', url: 'http://h/', body: 'z'.repeat(10_000) });
    expect(call.preview.body!.length).toBeLessThan(4 * 1024 + 100);
  });
});
