import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS } from '../../electron/capabilities/browser/chromium.js';
import { missing } from '../support/requirements.js';

// These prove the machine can run the real parts later suites drive (sandbox, browser, display).
describe('test environment', () => {
  const noDocker = missing('docker');
  it.skipIf(noDocker)(`the Docker engine answers${noDocker ? ` (skipped: ${noDocker})` : ''}`, () => {
    const version = execFileSync('docker', ['version', '--format', '{{.Server.Version}}']).toString().trim();
    expect(version).toMatch(/^\d+\.\d+/);
  });

  const noChromium = missing('chromium');
  it.skipIf(noChromium)(`headless Chromium renders a page${noChromium ? ` (skipped: ${noChromium})` : ''}`, () => {
    const html = execFileSync(
      '/usr/bin/chromium',
      ['--headless', ...CHROMIUM_FLAGS, '--dump-dom', 'data:text/html,<p id=x>agent-desk</p>'],
      { timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] },
    ).toString();
    expect(html).toContain('<p id="x">agent-desk</p>');
  });

  const noXvfb = missing('xvfb');
  it.skipIf(noXvfb)(`Xvfb starts a display${noXvfb ? ` (skipped: ${noXvfb})` : ''}`, async () => {
    const display = `:${90 + Math.floor(Math.random() * 100)}`;
    const xvfb = spawn('Xvfb', [display, '-screen', '0', '1280x800x24'], { stdio: 'ignore' });
    try {
      const lock = `/tmp/.X${display.slice(1)}-lock`;
      for (let i = 0; i < 100 && !existsSync(lock); i++) await new Promise((r) => setTimeout(r, 50));
      const info = execFileSync('xdpyinfo', ['-display', display], { timeout: 10_000 }).toString();
      expect(info).toContain('1280x800');
    } finally {
      xvfb.kill();
    }
  });
});
