import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fsReadTool, type FsReadOutput } from '../../../../../electron/runtime/tools/builtin/fsRead.js';
import { makeWorkspace, rejectionOf, runTool, toolContext, type WorkspaceFixture } from './workspaceFixture.js';

let fixture: WorkspaceFixture;
beforeEach(async () => {
  fixture = await makeWorkspace();
});
afterEach(async () => {
  await fixture.cleanup();
});

const read = (args: unknown) => runTool<unknown, FsReadOutput>(fsReadTool, args, toolContext(fixture.workspace));

describe('fs.read', () => {
  it('a capped read returns the head but the size and sha256 of the whole file', async () => {
    const content = 'abcdefghij'.repeat(100);
    await fs.writeFile(path.join(fixture.workspace, 'big.txt'), content);
    const result = await read({ path: 'big.txt', maxBytes: 10 });
    expect(result).toEqual({
      path: 'big.txt',
      content: 'abcdefghij',
      bytes: 1000,
      sha256: createHash('sha256').update(content).digest('hex'),
      truncated: true,
    });
  });

  it('a cut inside a multi-byte character does not produce a broken character', async () => {
    await fs.writeFile(path.join(fixture.workspace, 'zh.txt'), '支付成功');
    const result = await read({ path: 'zh.txt', maxBytes: 4 });
    expect(result.content).toBe('支');
    expect(result.truncated).toBe(true);
  });

  it('a missing file fails saying it does not exist, not retryable', async () => {
    const error = await rejectionOf(read({ path: 'nope.txt' }));
    expect(error.message).toBe('cannot read nope.txt: it does not exist');
    expect(error.retryable).toBe(false);
  });

  it('reading a directory fails saying so', async () => {
    await fs.mkdir(path.join(fixture.workspace, 'dir'));
    expect((await rejectionOf(read({ path: 'dir' }))).message).toBe('cannot read dir: it is a directory');
  });

  it('a file reached through a symlink to the outside is not read', async () => {
    await fs.writeFile(path.join(fixture.outside, 'secret.txt'), 'secret');
    await fs.symlink(path.join(fixture.outside, 'secret.txt'), path.join(fixture.workspace, 'link'));
    const error = await rejectionOf(read({ path: 'link' }));
    expect(error.message).not.toContain('secret"');
    expect(error.message).toContain('outside the task workspace');
  });

  it('a call on a cancelled task does not start', async () => {
    const controller = new AbortController();
    controller.abort();
    const ctx = toolContext(fixture.workspace, { signal: controller.signal });
    const error = await rejectionOf(runTool(fsReadTool, { path: 'a.txt' }, ctx));
    expect(error.message).toContain('cancelled');
  });
});
