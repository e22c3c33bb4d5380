import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileContainsVerifier } from '../../../../electron/runtime/verify/fileContains.js';
import { check, tempWorkspace } from './checkFixtures.js';

describe('file_contains', () => {
  let ws: Awaited<ReturnType<typeof tempWorkspace>>;
  beforeAll(async () => {
    ws = await tempWorkspace();
    await writeFile(path.join(ws.dir, 'report.md'), '# Inventory\n\nTotal: 42 items\nStatus: ok\n');
  });
  afterAll(() => ws.dispose());

  it('passes when the text is present', async () => {
    const result = await fileContainsVerifier.run(check({ type: 'file_contains', path: 'report.md', text: 'Total: 42' }), ws.ctx);
    expect(result).toMatchObject({ name: 'file_contains report.md', passed: true, output: 'text "Total: 42" found at line 3' });
  });

  it('matches a pattern with ^ and $ at line breaks', async () => {
    const result = await fileContainsVerifier.run(
      check({ type: 'file_contains', path: 'report.md', pattern: '^Total: \\d+ items$' }),
      ws.ctx,
    );
    expect(result).toMatchObject({ passed: true, output: expect.stringContaining('matched "Total: 42 items" at line 3') });
  });

  it('fails showing the start of the file', async () => {
    const result = await fileContainsVerifier.run(
      check({ type: 'file_contains', path: 'report.md', text: 'Total: 42', pattern: 'Status: failed' }),
      ws.ctx,
    );
    expect(result.passed).toBe(false);
    expect(result.output).toContain('pattern /Status: failed/ not matched');
    expect(result.output).toContain('starts with: "# Inventory\\n');
  });

  it('fails on an invalid pattern or a missing file without throwing', async () => {
    const bad = await fileContainsVerifier.run(check({ type: 'file_contains', path: 'report.md', pattern: '(' }), ws.ctx);
    expect(bad).toMatchObject({ passed: false, output: expect.stringContaining('invalid pattern /(/') });
    const missing = await fileContainsVerifier.run(check({ type: 'file_contains', path: 'gone.md', text: 'x' }), ws.ctx);
    expect(missing).toMatchObject({ passed: false, output: expect.stringContaining('not found:') });
  });
});
