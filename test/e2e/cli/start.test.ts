import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliSandbox, REPO_ROOT } from '../../support/cliSandbox.js';

/** `npm start` opens the Electron app instead of the gateway when its binary and main entry exist. */
function electronAppInstalled(): boolean {
  try {
    const binary: unknown = createRequire(import.meta.url)('electron');
    return typeof binary === 'string' && existsSync(binary) && existsSync(path.join(REPO_ROOT, 'dist/electron/main/index.js'));
  } catch {
    return false;
  }
}

let cli: CliSandbox;
beforeEach(() => {
  cli = new CliSandbox();
});
afterEach(async () => {
  await cli.cleanup();
});

describe('npm start without the Electron binary', () => {
  it('starts the headless gateway, whose /healthz answers ok', async (ctx) => {
    if (electronAppInstalled())
      return ctx.skip('the Electron binary is installed here, so npm start opens the app window instead of the gateway');
    const start = cli.spawnCommand(process.execPath, [path.join(REPO_ROOT, 'scripts/start.js'), '--port', '0']);
    const [, url] = await start.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/, 30_000);
    expect(start.stdout).toContain('Electron is not installed here');

    const response = await fetch(`${url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(start.running).toBe(true);
  });
});
