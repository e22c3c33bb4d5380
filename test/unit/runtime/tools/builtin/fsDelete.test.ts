import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fsDeleteTool, type FsDeleteOutput } from '../../../../../electron/runtime/tools/builtin/fsDelete.js';
import { makeWorkspace, rejectionOf, runTool, toolContext, type WorkspaceFixture } from './workspaceFixture.js';

let fixture: WorkspaceFixture;
const at = (p: string) => path.join(fixture.workspace, p);
beforeEach(async () => {
  fixture = await makeWorkspace();
  await fs.mkdir(at('logs/archive'), { recursive: true });
  await fs.writeFile(at('logs/old.log'), 'x'.repeat(2150));
  await fs.writeFile(at('logs/archive/2023.log'), 'y');
});
afterEach(async () => {
  await fixture.cleanup();
});

const remove = (args: unknown) => runTool<unknown, FsDeleteOutput>(fsDeleteTool, args, toolContext(fixture.workspace));
const exists = (p: string) =>
  fs.lstat(p).then(
    () => true,
    () => false,
  );

describe('fs.delete', () => {
  it('deleting a file twice succeeds both times, the second with deleted false', async () => {
    expect(await remove({ path: 'logs/old.log' })).toEqual({ path: 'logs/old.log', deleted: true });
    expect(await remove({ path: 'logs/old.log' })).toEqual({ path: 'logs/old.log', deleted: false });
    expect(await exists(at('logs/old.log'))).toBe(false);
  });

  it('a path under a missing directory counts as already deleted', async () => {
    expect(await remove({ path: 'nope/x.txt' })).toEqual({ path: 'nope/x.txt', deleted: false });
  });

  it('the workspace root is never deleted', async () => {
    for (const root of ['.', fixture.workspace, 'logs/..']) {
      const error = await rejectionOf(remove({ path: root, recursive: true }));
      expect(error.message).toContain('refusing to delete the workspace root');
    }
    expect(await exists(at('logs/old.log'))).toBe(true);
  });

  it('a directory is deleted only with recursive', async () => {
    const error = await rejectionOf(remove({ path: 'logs' }));
    expect(error.message).toBe('logs is a directory; pass recursive: true to delete it with its contents');
    expect(await remove({ path: 'logs', recursive: true })).toEqual({ path: 'logs', deleted: true });
    expect(await exists(at('logs'))).toBe(false);
  });

  it('deleting a symlink removes the link, not what it points to', async () => {
    await fs.symlink(at('logs/old.log'), at('latest.log'));
    expect(await remove({ path: 'latest.log' })).toEqual({ path: 'latest.log', deleted: true });
    expect(await exists(at('logs/old.log'))).toBe(true);
  });

  it('a file outside the workspace is not deleted', async () => {
    await fs.writeFile(path.join(fixture.outside, 'keep.txt'), 'k');
    await rejectionOf(remove({ path: '../outside/keep.txt' }));
    expect(await exists(path.join(fixture.outside, 'keep.txt'))).toBe(true);
  });
});

describe('fs.delete classification', () => {
  const classify = (args: unknown) => fsDeleteTool.classify(fsDeleteTool.input.parse(args), { workspace: fixture.workspace });

  it('a file preview names it and its size', () => {
    const call = classify({ path: 'logs/old.log' });
    expect(call).toMatchObject({ risks: ['delete'], subject: 'logs/old.log', insideWorkspace: true, idempotent: true });
    expect(call.preview.summary).toBe('Delete logs/old.log (2.1 KB)');
  });

  it('a directory preview counts and lists its entries', () => {
    const call = classify({ path: 'logs', recursive: true });
    expect(call.preview.summary).toBe('Delete directory logs and its 3 entries');
    expect(call.preview.body).toBe('logs/archive/\nlogs/archive/2023.log\nlogs/old.log');
  });
});
