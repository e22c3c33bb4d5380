import { spawn } from 'node:child_process';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DesktopSandbox } from '../../../../electron/capabilities/sandbox/desktopSandbox.js';
import { SandboxDriver } from '../../../../electron/capabilities/sandbox/sandboxDriver.js';
import { missing } from '../../../support/requirements.js';
import { desktopImage } from '../../../support/sandboxImage.js';

const skip = missing('docker');
const root = path.resolve(import.meta.dirname, '../../../..');

const PAGE = `<!doctype html><meta charset="utf-8"><title>empty</title>
<body style="margin:0;background:#fff"><input id="q" style="position:fixed;left:100px;top:100px;width:400px;height:40px;font-size:24px"
 oninput="document.title='v:'+this.value" onkeydown="if(event.ctrlKey&&event.key==='a')document.title='ctrl-a'"></body>`;

describe.skipIf(skip)('a desktop sandbox over docker exec stdio', () => {
  let driver: SandboxDriver;
  let sandbox: DesktopSandbox;
  const owner = `test-desktop-${process.pid}`;

  beforeAll(async () => {
    driver = new SandboxDriver({ image: await desktopImage(), owner });
    sandbox = await driver.create({ task: 'T1' });
  }, 600_000);
  afterAll(async () => {
    await driver?.close();
  });

  // First, right after create: a desktop is ready only once its window manager manages the screen
  // (before that a right click opens no menu, and a click on the bare desktop is no_effect).
  it('is ready only once the window manager manages the screen', async () => {
    const run = await sandbox.call('exec.run', { command: ['xprop', '-root', '_NET_SUPPORTING_WM_CHECK'] });
    expect(run.stdout).toMatch(/window id/);
  });

  it('reports health with the screen size', async () => {
    const health = await sandbox.call('health', {});
    expect(health).toMatchObject({ ok: true, display: ':99', screen: { width: 1280, height: 800 } });
    expect(health.node).toMatch(/^v20\./);
  });

  it('captures PNG and downscaled JPEG screenshots', async () => {
    const png = await sandbox.call('screen.capture', { format: 'png' });
    const meta = await sharp(Buffer.from(png.data, 'base64')).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1280, 800]);
    const jpeg = await sandbox.call('screen.capture', { format: 'jpeg', width: 640, height: 400, quality: 60 });
    const small = await sharp(Buffer.from(jpeg.data, 'base64')).metadata();
    expect([small.format, small.width, small.height, jpeg.screenWidth]).toEqual(['jpeg', 640, 400, 1280]);
  });

  it('moves, clicks, types ASCII and Chinese, presses combos in the sandbox Chromium', async () => {
    await sandbox.call('files.write', { path: 'page.html', data: PAGE });
    const opened = await sandbox.call('browser.open', { url: 'file:///home/agent/page.html' }, 60_000);
    expect(opened.title).toBe('empty');
    expect((await sandbox.call('screen.waitStable', { frames: 3, timeoutMs: 10_000 })).stable).toBe(true);
    expect(await sandbox.call('mouse.move', { x: 321, y: 123 })).toEqual({ x: 321, y: 123 });
    expect(await sandbox.call('mouse.position', {})).toEqual({ x: 321, y: 123 });
    const { targets } = await sandbox.call('browser.targets', {});
    const input = targets.find((t) => t.id === 'q');
    expect(input).toBeDefined();
    const center = { x: input!.rect.x + Math.round(input!.rect.width / 2), y: input!.rect.y + Math.round(input!.rect.height / 2) };
    await sandbox.call('mouse.click', { ...center });
    expect(await sandbox.call('mouse.position', {})).toEqual(center);
    await sandbox.call('keyboard.type', { text: 'hello 你好 world' });
    await sandbox.call('screen.waitStable', {});
    expect((await sandbox.call('browser.state', {})).title).toBe('v:hello 你好 world');
    await sandbox.call('keyboard.press', { keys: ['ctrl', 'a'] });
    expect((await sandbox.call('browser.state', {})).title).toBe('ctrl-a');
  });

  it('reads, writes and hashes files in the home folder and runs commands there', async () => {
    await sandbox.call('files.write', { path: 'notes/a.txt', data: '中文 ok' });
    expect((await sandbox.call('files.read', { path: 'notes/a.txt' })).data).toBe('中文 ok');
    const stat = await sandbox.call('files.stat', { path: 'notes/a.txt' });
    expect(stat).toMatchObject({ exists: true, size: Buffer.byteLength('中文 ok') });
    expect(stat.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await sandbox.call('files.stat', { path: 'nope' })).toEqual({ exists: false });
    const run = await sandbox.call('exec.run', { command: ['cat', 'a.txt'], cwd: 'notes' });
    expect([run.exitCode, run.stdout]).toEqual([0, '中文 ok']);
  });

  it('lists its sandbox with owner and task labels', async () => {
    const listed = await driver.list();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ name: sandbox.name, state: 'running', task: 'T1', pid: process.pid });
  });
});

describe.skipIf(skip)('orphan reaping', () => {
  it("a killed runtime's sandbox is removed by the next driver, a live one is kept", async () => {
    const image = await desktopImage();
    const owner = `test-orphans-${process.pid}`;
    const script = `import('${root}/dist/electron/capabilities/sandbox/sandboxDriver.js').then(async (m) => {
      const d = new m.SandboxDriver({ image: ${JSON.stringify(image)}, owner: ${JSON.stringify(owner)} });
      const s = await d.create(); console.log('ready ' + s.name); setInterval(() => {}, 1000);
    });`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const name = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        const m = /ready (\S+)/.exec(d.toString());
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`child exited ${code}`)));
    });
    const driver = new SandboxDriver({ image, owner });
    expect(await driver.reapOrphans()).toEqual([]); // its owner is alive
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    expect((await driver.list()).map((s) => s.name)).toEqual([name]);
    expect(await driver.reapOrphans()).toEqual([name]);
    expect(await driver.list()).toEqual([]);
  }, 120_000);
});
