import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fsReadTool, type FsReadOutput } from '../../../../../electron/runtime/tools/builtin/fsRead.js';
import { fsWriteTool, type FsWriteOutput } from '../../../../../electron/runtime/tools/builtin/fsWrite.js';
import { makeWorkspace, rejectionOf, runTool, toolContext, type WorkspaceFixture } from './workspaceFixture.js';

let fixture: WorkspaceFixture;
beforeEach(async () => {
  fixture = await makeWorkspace();
});
afterEach(async () => {
  await fixture.cleanup();
});

const write = (args: unknown) => runTool<unknown, FsWriteOutput>(fsWriteTool, args, toolContext(fixture.workspace));
const read = (args: unknown) => runTool<unknown, FsReadOutput>(fsReadTool, args, toolContext(fixture.workspace));
const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

describe('fs.write', () => {
  it('a written file reads back with the same content and sha256, creating parent directories', async () => {
    const written = await write({ path: 'reports/2024/a.csv', content: 'id,name\n1,Ada\n' });
    expect(written).toEqual({ path: 'reports/2024/a.csv', bytes: 14, sha256: sha256('id,name\n1,Ada\n'), created: true });

    const readBack = await read({ path: 'reports/2024/a.csv' });
    expect(readBack).toEqual({
      path: 'reports/2024/a.csv',
      content: 'id,name\n1,Ada\n',
      bytes: 14,
      sha256: written.sha256,
      truncated: false,
    });
  });

  it('cleaning up after an interrupted write removes only its own temp files, and only beside its target', async () => {
    await fs.mkdir(path.join(fixture.workspace, 'notes'));
    const keep = ['a.txt', '.a.txt.backup', '.a.txt.0123456789ab.tmp.keep', '.b.txt.0123456789ab.tmp', 'notes'];
    for (const name of keep.slice(0, 4)) await fs.writeFile(path.join(fixture.workspace, name), 'x');
    await fs.writeFile(path.join(fixture.workspace, '.a.txt.0123456789ab.tmp'), 'half');
    await fs.writeFile(path.join(fixture.workspace, '.a.txt.fedcba987654.tmp'), 'half');
    await fs.writeFile(path.join(fixture.workspace, 'notes', '.a.txt.0123456789ab.tmp'), 'other dir');
    await fsWriteTool.cleanUpInterrupted!(
      { path: 'a.txt', content: '', encoding: 'utf8', mode: 'overwrite' },
      { workspace: fixture.workspace },
    );
    expect((await fs.readdir(fixture.workspace)).sort()).toEqual([...keep].sort());
    expect(await fs.readdir(path.join(fixture.workspace, 'notes'))).toEqual(['.a.txt.0123456789ab.tmp']);
    // Nothing left, or no directory at all: not an error.
    await fsWriteTool.cleanUpInterrupted!(
      { path: 'gone/a.txt', content: '', encoding: 'utf8', mode: 'overwrite' },
      { workspace: fixture.workspace },
    );
  });

  it('leaves no temporary file next to the target', async () => {
    await write({ path: 'a.txt', content: 'one' });
    await write({ path: 'a.txt', content: 'two' });
    expect(await fs.readdir(fixture.workspace)).toEqual(['a.txt']);
  });

  it('writing the same content twice gives the same file and hash', async () => {
    const first = await write({ path: 'a.txt', content: 'same' });
    const second = await write({ path: 'a.txt', content: 'same' });
    expect(second).toEqual({ ...first, created: false });
    expect(await fs.readFile(path.join(fixture.workspace, 'a.txt'), 'utf8')).toBe('same');
  });

  it('create mode refuses to replace a different existing file', async () => {
    await write({ path: 'a.txt', content: 'original' });
    const error = await rejectionOf(write({ path: 'a.txt', content: 'other', mode: 'create' }));
    expect(error.message).toContain('cannot create a.txt: a different file already exists');
    expect(error.retryable).toBe(false);
    expect(await fs.readFile(path.join(fixture.workspace, 'a.txt'), 'utf8')).toBe('original');
  });

  it('create mode re-run with identical content succeeds without creating', async () => {
    expect((await write({ path: 'a.txt', content: 'x', mode: 'create' })).created).toBe(true);
    expect((await write({ path: 'a.txt', content: 'x', mode: 'create' })).created).toBe(false);
  });

  it('base64 content is written as bytes and reads back as base64', async () => {
    const bytes = Buffer.from([0, 1, 2, 255]);
    await write({ path: 'bin/data.bin', content: bytes.toString('base64'), encoding: 'base64' });
    const readBack = await read({ path: 'bin/data.bin', encoding: 'base64' });
    expect(readBack.content).toBe(bytes.toString('base64'));
    expect(readBack.sha256).toBe(sha256(bytes));
  });

  it('content that is not base64 is rejected by the schema at args.content', () => {
    const parsed = fsWriteTool.input.safeParse({ path: 'a', content: 'not base64!', encoding: 'base64' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['content']);
  });

  it('a write through a symlinked directory pointing outside changes nothing outside', async () => {
    await fs.symlink(fixture.outside, path.join(fixture.workspace, 'escape'), 'dir');
    const error = await rejectionOf(write({ path: 'escape/x.txt', content: 'pwned' }));
    expect(error.message).toContain('outside the task workspace');
    expect(await fs.readdir(fixture.outside)).toEqual([]);
  });

  it('writing onto a directory fails with a clear message', async () => {
    await fs.mkdir(path.join(fixture.workspace, 'dir'));
    expect((await rejectionOf(write({ path: 'dir', content: 'x' }))).message).toBe('cannot write dir: it is a directory');
  });
});

describe('fs.write classification', () => {
  const classify = (args: unknown) => fsWriteTool.classify(fsWriteTool.input.parse(args), { workspace: fixture.workspace });

  it('a new file previews its size, path and content', () => {
    const call = classify({ path: 'reports/a.csv', content: 'x'.repeat(120) });
    expect(call).toMatchObject({ risks: ['write'], subject: 'reports/a.csv', insideWorkspace: true, idempotent: true });
    expect(call.preview.summary).toBe('Write 120 bytes to reports/a.csv (new file)');
    expect(call.preview.body).toBe('x'.repeat(120));
  });

  it('replacing a file previews a unified diff against the current content', async () => {
    await fs.writeFile(path.join(fixture.workspace, 'a.txt'), 'one\ntwo\nthree\n');
    const call = classify({ path: 'a.txt', content: 'one\n2\nthree\n' });
    expect(call.preview.summary).toBe('Write 12 bytes to a.txt (replaces 14 bytes)');
    expect(call.preview.body).toContain('--- a/a.txt');
    expect(call.preview.body).toContain('-two\n+2');
  });

  it('a long diff is cut to about 8 KB', async () => {
    const before = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
    await fs.writeFile(path.join(fixture.workspace, 'big.txt'), before);
    const call = classify({ path: 'big.txt', content: `${before}\n${before}` });
    expect(call.preview.body!.length).toBeLessThan(8 * 1024 + 100);
    expect(call.preview.body).toContain('more characters not shown');
  });

  it('a rewrite too different to diff quickly previews the sizes instead', async () => {
    const before = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n');
    await fs.writeFile(path.join(fixture.workspace, 'big.txt'), before);
    const started = Date.now();
    const call = classify({ path: 'big.txt', content: before.replace(/line/g, 'row') });
    expect(Date.now() - started).toBeLessThan(1000);
    // A fast machine may finish the diff within the time bound; either way the preview is bounded.
    const body = call.preview.body ?? '';
    expect(body.startsWith('(too many changes to diff: ') || body.includes('--- a/big.txt')).toBe(true);
  });

  it('a path outside the workspace is reported as outside, not thrown', () => {
    const call = classify({ path: '../x.txt', content: 'x' });
    expect(call.insideWorkspace).toBe(false);
    expect(call.subject).toBe(path.resolve(fixture.workspace, '../x.txt').split(path.sep).join('/'));
    expect(call.preview.summary).toMatch(/^Refused: /);
  });
});
