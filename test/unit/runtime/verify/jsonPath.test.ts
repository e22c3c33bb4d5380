import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonPathVerifier } from '../../../../electron/runtime/verify/jsonPath.js';
import { check, startServer, tempWorkspace } from './checkFixtures.js';

describe('json_path', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let ws: Awaited<ReturnType<typeof tempWorkspace>>;
  beforeAll(async () => {
    ws = await tempWorkspace();
    await writeFile(path.join(ws.dir, 'summary.json'), JSON.stringify({ total: 42, skus: ['A1', 'B2'], note: 'x'.repeat(2000) }));
    await writeFile(path.join(ws.dir, 'broken.json'), '{"total": ');
    server = await startServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/status') return res.end(JSON.stringify({ status: 'ok', items: [{ id: 1 }, { id: 2 }] }));
      res.statusCode = 500;
      res.end(JSON.stringify({ error: 'boom' }));
    });
  });
  afterAll(async () => {
    await server.close();
    await ws.dispose();
  });

  it('passes when a URL document has the value', async () => {
    const result = await jsonPathVerifier.run(
      check({ type: 'json_path', url: `${server.url}/status`, path: '$.status', equals: 'ok' }),
      ws.ctx,
    );
    expect(result).toMatchObject({ name: `json_path $.status in ${server.url}/status`, passed: true, output: '$.status = "ok"' });
  });

  it('compares deeply and reads workspace files', async () => {
    const file = check({ type: 'json_path', file: 'summary.json', path: '$.skus', equals: ['A1', 'B2'] });
    expect(await jsonPathVerifier.run(file, ws.ctx)).toMatchObject({ passed: true });
    const wildcard = check({ type: 'json_path', url: `${server.url}/status`, path: '$.items[*].id', equals: [1, 2] });
    expect(await jsonPathVerifier.run(wildcard, ws.ctx)).toMatchObject({ passed: true, output: '$.items[*].id = [1,2]' });
  });

  it('fails showing what was found', async () => {
    const result = await jsonPathVerifier.run(check({ type: 'json_path', file: 'summary.json', path: '$.total', equals: 40 }), ws.ctx);
    expect(result).toMatchObject({ passed: false, output: '$.total = 42 (expected 40)' });
  });

  it('checks existence, and truncates large values', async () => {
    const missing = await jsonPathVerifier.run(check({ type: 'json_path', file: 'summary.json', path: '$.absent' }), ws.ctx);
    expect(missing).toMatchObject({ passed: false, output: '$.absent: nothing found (expected to exist)' });
    const absent = check({ type: 'json_path', file: 'summary.json', path: '$.absent', exists: false });
    expect(await jsonPathVerifier.run(absent, ws.ctx)).toMatchObject({ passed: true });
    const big = await jsonPathVerifier.run(check({ type: 'json_path', file: 'summary.json', path: '$.note' }), ws.ctx);
    expect(big.passed).toBe(true);
    expect(big.output.length).toBeLessThan(600);
  });

  it('fails on bad JSON, an error status, or a missing file without throwing', async () => {
    const broken = await jsonPathVerifier.run(check({ type: 'json_path', file: 'broken.json', path: '$.total' }), ws.ctx);
    expect(broken).toMatchObject({ passed: false, output: expect.stringContaining('broken.json is not JSON') });
    const error = await jsonPathVerifier.run(check({ type: 'json_path', url: `${server.url}/fail`, path: '$.error' }), ws.ctx);
    expect(error).toMatchObject({ passed: false, output: `${server.url}/fail answered HTTP 500: "{\\"error\\":\\"boom\\"}"` });
    const gone = await jsonPathVerifier.run(check({ type: 'json_path', file: 'gone.json', path: '$' }), ws.ctx);
    expect(gone).toMatchObject({ passed: false, output: expect.stringContaining('not found:') });
  });
});
