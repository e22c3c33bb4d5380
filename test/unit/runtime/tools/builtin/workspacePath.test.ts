import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkWorkspacePath, resolveWorkspacePath } from '../../../../../electron/runtime/tools/builtin/workspacePath.js';
import { ToolError } from '../../../../../electron/runtime/tools/types.js';
import { makeWorkspace, type WorkspaceFixture } from './workspaceFixture.js';

let fixture: WorkspaceFixture;
beforeEach(async () => {
  fixture = await makeWorkspace();
});
afterEach(async () => {
  await fixture.cleanup();
});

function refusal(userPath: string): ToolError {
  try {
    resolveWorkspacePath(fixture.workspace, userPath);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return error as ToolError;
  }
  throw new Error(`expected "${userPath}" to be refused`);
}

describe('workspace paths', () => {
  it('a relative path resolves inside the workspace with a posix relative subject', () => {
    const resolved = resolveWorkspacePath(fixture.workspace, 'reports/2024/a.csv');
    expect(resolved.relative).toBe('reports/2024/a.csv');
    expect(resolved.absolute).toBe(path.join(fixture.workspace, 'reports', '2024', 'a.csv'));
  });

  it('the workspace itself resolves to "."', () => {
    expect(resolveWorkspacePath(fixture.workspace, '.').relative).toBe('.');
    expect(resolveWorkspacePath(fixture.workspace, 'a/..').relative).toBe('.');
  });

  it('an absolute path inside the workspace is accepted', () => {
    const inside = path.join(fixture.workspace, 'notes.txt');
    expect(resolveWorkspacePath(fixture.workspace, inside).relative).toBe('notes.txt');
  });

  it('a ".." escape is refused, naming the path, and is not retryable', () => {
    const error = refusal('../x');
    expect(error.message).toContain('"../x"');
    expect(error.message).toContain('escapes the task workspace');
    expect(error.retryable).toBe(false);
    expect(refusal('a/../../x').message).toContain('a/../../x');
  });

  it('an absolute path outside the workspace is refused', () => {
    const error = refusal(path.join(fixture.outside, 'secret.txt'));
    expect(error.message).toContain('outside the task workspace');
  });

  it('a symlink pointing outside the workspace is refused', async () => {
    await fs.writeFile(path.join(fixture.outside, 'secret.txt'), 'top secret');
    await fs.symlink(path.join(fixture.outside, 'secret.txt'), path.join(fixture.workspace, 'link.txt'));
    expect(refusal('link.txt').message).toMatch(/symlink to .*outside the task workspace/);
  });

  it('a new file under a symlinked parent directory that points outside is refused', async () => {
    await fs.symlink(fixture.outside, path.join(fixture.workspace, 'escape'), 'dir');
    expect(refusal('escape/new/file.txt').message).toContain('"escape/new/file.txt"');
  });

  it('a symlink pointing inside the workspace is allowed', async () => {
    await fs.mkdir(path.join(fixture.workspace, 'real'));
    await fs.symlink(path.join(fixture.workspace, 'real'), path.join(fixture.workspace, 'alias'), 'dir');
    expect(resolveWorkspacePath(fixture.workspace, 'alias/file.txt').relative).toBe('alias/file.txt');
  });

  it('a dangling symlink is refused rather than written through', async () => {
    await fs.symlink(path.join(fixture.outside, 'not-yet.txt'), path.join(fixture.workspace, 'dangling.txt'));
    expect(refusal('dangling.txt').message).toContain('does not exist');
  });

  it('checking a path reports the refusal instead of throwing', () => {
    const check = checkWorkspacePath(fixture.workspace, '../x');
    expect(check.ok).toBe(false);
    expect(check.absolute).toBe(path.resolve(fixture.workspace, '../x'));
  });
});
