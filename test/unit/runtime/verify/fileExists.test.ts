import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileExistsVerifier } from '../../../../electron/runtime/verify/fileExists.js';
import { check, tempWorkspace } from './checkFixtures.js';

describe('file_exists', () => {
  let ws: Awaited<ReturnType<typeof tempWorkspace>>;
  beforeAll(async () => {
    ws = await tempWorkspace();
    await mkdir(path.join(ws.dir, 'reports'));
    await writeFile(path.join(ws.dir, 'reports/inventory.csv'), 'sku,qty\n');
  });
  afterAll(() => ws.dispose());

  it('passes for a file relative to the workspace and names the check by default', async () => {
    const result = await fileExistsVerifier.run(check({ type: 'file_exists', path: 'reports/inventory.csv' }), ws.ctx);
    expect(result).toMatchObject({ name: 'file_exists reports/inventory.csv', type: 'file_exists', passed: true });
    expect(result.output).toContain('file, 8 bytes');
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('fails for a missing file with the path it looked at', async () => {
    const result = await fileExistsVerifier.run(check({ type: 'file_exists', path: 'reports/missing.csv', name: 'report' }), ws.ctx);
    expect(result).toMatchObject({ name: 'report', passed: false, output: `not found: ${path.join(ws.dir, 'reports/missing.csv')}` });
  });

  it('with exists: false passes only while the path is absent', async () => {
    const absent = await fileExistsVerifier.run(check({ type: 'file_exists', path: 'tmp.lock', exists: false }), ws.ctx);
    expect(absent).toMatchObject({ name: 'file_exists tmp.lock (absent)', passed: true });
    const present = await fileExistsVerifier.run(check({ type: 'file_exists', path: 'reports', exists: false }), ws.ctx);
    expect(present).toMatchObject({ passed: false, output: expect.stringContaining('exists (folder)') });
  });
});
