import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileSha256Verifier } from '../../../../electron/runtime/verify/fileSha256.js';
import { check, tempWorkspace } from './checkFixtures.js';

describe('file_sha256', () => {
  let ws: Awaited<ReturnType<typeof tempWorkspace>>;
  const content = 'sku,qty\nA1,3\n';
  const digest = createHash('sha256').update(content).digest('hex');
  beforeAll(async () => {
    ws = await tempWorkspace();
    await writeFile(path.join(ws.dir, 'inventory.csv'), content);
  });
  afterAll(() => ws.dispose());

  it('passes when the digest matches, in any letter case', async () => {
    const result = await fileSha256Verifier.run(
      check({ type: 'file_sha256', path: 'inventory.csv', sha256: digest.toUpperCase() }),
      ws.ctx,
    );
    expect(result).toMatchObject({ name: 'file_sha256 inventory.csv', passed: true, output: `sha256 ${digest}` });
  });

  it('fails showing the actual digest', async () => {
    const wrong = '0'.repeat(64);
    const result = await fileSha256Verifier.run(check({ type: 'file_sha256', path: 'inventory.csv', sha256: wrong }), ws.ctx);
    expect(result).toMatchObject({ passed: false, output: `sha256 ${digest} (expected ${wrong})` });
  });

  it('fails for a missing file without throwing', async () => {
    const result = await fileSha256Verifier.run(check({ type: 'file_sha256', path: 'nope.csv', sha256: digest }), ws.ctx);
    expect(result).toMatchObject({ passed: false, output: `not found: ${path.join(ws.dir, 'nope.csv')}` });
  });
});
