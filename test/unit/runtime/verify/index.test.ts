import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCheckName, runChecks } from '../../../../electron/runtime/verify/index.js';
import { check, tempWorkspace } from './checkFixtures.js';

describe('runChecks', () => {
  let ws: Awaited<ReturnType<typeof tempWorkspace>>;
  beforeAll(async () => {
    ws = await tempWorkspace();
    await writeFile(path.join(ws.dir, 'out.txt'), 'done\n');
  });
  afterAll(() => ws.dispose());

  it('runs every check in order, even after a failure', async () => {
    const results = await runChecks(
      [
        check({ type: 'file_exists', path: 'missing.txt' }),
        check({ type: 'file_contains', path: 'out.txt', text: 'done' }),
        check({ type: 'command_exit', command: [process.execPath, '-e', 'process.exit(3)'] }),
      ],
      ws.ctx,
    );
    expect(results.map((r) => [r.type, r.passed])).toEqual([
      ['file_exists', false],
      ['file_contains', true],
      ['command_exit', false],
    ]);
  });

  it('a check type without a verifier fails instead of throwing', async () => {
    const [result] = await runChecks([check({ type: 'file_exists', path: 'out.txt' })], ws.ctx, []);
    expect(result).toMatchObject({ passed: false, output: 'no verifier for check type file_exists' });
  });
});

describe('defaultCheckName', () => {
  it('uses the given name, else the type and target', () => {
    expect(defaultCheckName(check({ type: 'file_sha256', path: 'reports/inventory.csv', sha256: 'a'.repeat(64) }))).toBe(
      'file_sha256 reports/inventory.csv',
    );
    expect(defaultCheckName(check({ type: 'json_path', file: 'a.json', path: '$.x' }))).toBe('json_path $.x in a.json');
    expect(defaultCheckName(check({ type: 'command_exit', command: ['npm', 'test'] }))).toBe('command_exit npm test');
    expect(defaultCheckName(check({ type: 'http_status', url: 'http://x/', name: 'api up' }))).toBe('api up');
  });
});
