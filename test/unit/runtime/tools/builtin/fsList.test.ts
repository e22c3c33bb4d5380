import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fsListTool, type FsListOutput } from '../../../../../electron/runtime/tools/builtin/fsList.js';
import { makeWorkspace, rejectionOf, runTool, toolContext, type WorkspaceFixture } from './workspaceFixture.js';

let fixture: WorkspaceFixture;
beforeEach(async () => {
  fixture = await makeWorkspace();
  const at = (p: string) => path.join(fixture.workspace, p);
  await fs.mkdir(at('src/lib'), { recursive: true });
  await fs.writeFile(at('b.txt'), 'bb');
  await fs.writeFile(at('a.txt'), 'a');
  await fs.writeFile(at('src/main.ts'), 'main');
  await fs.writeFile(at('src/lib/util.ts'), 'u');
  await fs.writeFile(path.join(fixture.outside, 'o.txt'), 'outside');
  await fs.symlink(fixture.outside, at('out'), 'dir');
});
afterEach(async () => {
  await fixture.cleanup();
});

const list = (args: unknown) => runTool<unknown, FsListOutput>(fsListTool, args, toolContext(fixture.workspace));

describe('fs.list', () => {
  it('lists the top level sorted by path, with types and sizes', async () => {
    expect(await list({})).toEqual({
      entries: [
        { path: 'a.txt', type: 'file', size: 1 },
        { path: 'b.txt', type: 'file', size: 2 },
        { path: 'out', type: 'symlink', size: expect.any(Number) },
        { path: 'src', type: 'dir', size: 0 },
      ],
      truncated: false,
    });
  });

  it('recursive listing descends into directories but not through symlinks', async () => {
    const { entries } = await list({ recursive: true });
    expect(entries.map((e) => e.path)).toEqual(['a.txt', 'b.txt', 'out', 'src', 'src/lib', 'src/lib/util.ts', 'src/main.ts']);
  });

  it('a subdirectory lists with workspace-relative paths', async () => {
    const { entries } = await list({ path: 'src' });
    expect(entries.map((e) => e.path)).toEqual(['src/lib', 'src/main.ts']);
  });

  it('stops at maxEntries and says the listing is truncated', async () => {
    const result = await list({ recursive: true, maxEntries: 3 });
    expect(result.entries).toHaveLength(3);
    expect(result.truncated).toBe(true);
  });

  it('listing a file points to fs.read', async () => {
    expect((await rejectionOf(list({ path: 'a.txt' }))).message).toContain('use fs.read');
  });

  it('listing through a symlink to the outside is refused', async () => {
    expect((await rejectionOf(list({ path: 'out' }))).message).toContain('outside the task workspace');
  });
});
