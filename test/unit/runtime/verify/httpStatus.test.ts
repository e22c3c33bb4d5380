import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpStatusVerifier } from '../../../../electron/runtime/verify/httpStatus.js';
import { check, startServer, tempWorkspace } from './checkFixtures.js';

describe('http_status', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let ws: Awaited<ReturnType<typeof tempWorkspace>>;
  const methods: string[] = [];
  beforeAll(async () => {
    ws = await tempWorkspace();
    server = await startServer((req, res) => {
      methods.push(`${req.method} ${req.url}`);
      if (req.url === '/health') return res.end('ok');
      if (req.url === '/slow') return setTimeout(() => res.end('late'), 5_000).unref();
      res.statusCode = 404;
      res.end('missing');
    });
  });
  afterAll(async () => {
    await server.close();
    await ws.dispose();
  });

  it('passes on the expected status', async () => {
    const result = await httpStatusVerifier.run(check({ type: 'http_status', url: `${server.url}/health` }), ws.ctx);
    expect(result).toMatchObject({ name: `http_status ${server.url}/health`, passed: true, output: `GET ${server.url}/health → 200 OK` });
  });

  it('accepts any status of a list and sends HEAD when asked', async () => {
    const result = await httpStatusVerifier.run(
      check({ type: 'http_status', url: `${server.url}/gone`, method: 'HEAD', status: [404, 410] }),
      ws.ctx,
    );
    expect(result).toMatchObject({ name: `http_status HEAD ${server.url}/gone`, passed: true });
    expect(methods).toContain('HEAD /gone');
  });

  it('fails showing the actual status', async () => {
    const result = await httpStatusVerifier.run(check({ type: 'http_status', url: `${server.url}/gone` }), ws.ctx);
    expect(result).toMatchObject({ passed: false, output: `GET ${server.url}/gone → 404 Not Found (expected 200)` });
  });

  it('fails on a timeout', async () => {
    const result = await httpStatusVerifier.run(check({ type: 'http_status', url: `${server.url}/slow`, timeoutMs: 200 }), ws.ctx);
    expect(result).toMatchObject({ passed: false, output: 'timed out after 200 ms' });
  });

  it('fails on a refused connection without throwing', async () => {
    const closed = await startServer((_req, res) => res.end());
    await closed.close();
    const result = await httpStatusVerifier.run(check({ type: 'http_status', url: `${closed.url}/health` }), ws.ctx);
    expect(result.passed).toBe(false);
    expect(result.output).toMatch(/^request failed: .*ECONNREFUSED/);
  });
});
