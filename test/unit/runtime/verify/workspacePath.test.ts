import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { confineToWorkspace } from '../../../../electron/runtime/verify/workspacePath.js';
import { tempWorkspace } from './checkFixtures.js';

let disposers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const d of disposers) await d();
  disposers = [];
});

async function workspaces() {
  const [ws, outside] = [await tempWorkspace(), await tempWorkspace()];
  disposers.push(ws.dispose, outside.dispose);
  return { ws: ws.dir, outside: outside.dir };
}

describe('confineToWorkspace', () => {
  it('keeps plain relative paths, existing or not, and links that stay inside', async () => {
    const { ws } = await workspaces();
    mkdirSync(path.join(ws, 'reports'));
    symlinkSync(path.join(ws, 'reports'), path.join(ws, 'latest'));
    expect(await confineToWorkspace(ws, 'reports/a.csv')).toEqual({ path: path.join(ws, 'reports/a.csv') });
    expect(await confineToWorkspace(ws, 'not/yet/there.txt')).toEqual({ path: path.join(ws, 'not/yet/there.txt') });
    expect(await confineToWorkspace(ws, 'latest/a.csv')).toEqual({ path: path.join(ws, 'latest/a.csv') });
  });

  it('refuses absolute paths, .. and symlinks out (to a file, a folder, or dangling)', async () => {
    const { ws, outside } = await workspaces();
    writeFileSync(path.join(outside, 'secret'), 's');
    symlinkSync(path.join(outside, 'secret'), path.join(ws, 'file-link'));
    symlinkSync(outside, path.join(ws, 'dir-link'));
    symlinkSync(path.join(outside, 'gone'), path.join(ws, 'dangling'));
    const refusal = async (target: string) => ((await confineToWorkspace(ws, target)) as { refusal?: string }).refusal;
    expect(await refusal('/etc/passwd')).toMatch(/absolute path/);
    expect(await refusal('a/../../b')).toMatch(/climbs out/);
    expect(await refusal('file-link')).toMatch(/leads outside the task workspace/);
    expect(await refusal('dir-link/secret')).toMatch(/leads outside/);
    expect(await refusal('dir-link/new/file')).toMatch(/leads outside/);
    expect(await refusal('dangling')).toMatch(/symlink whose target is missing/);
  });
});
