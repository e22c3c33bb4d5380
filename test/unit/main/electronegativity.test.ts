import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/cliSandbox.js';
import { tempDir } from '../../support/runtime.js';

type Issue = { id: string; file: string; location: { line: number }; severity: { name: string }; confidence: { name: string } };
type Run = (options: Record<string, unknown>) => Promise<{ issues: Issue[]; errors: unknown[] }>;

const require = createRequire(import.meta.url);
const electronegativity = require('@doyensec/electronegativity') as Run;
const electronVersion = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
).version;
const app = tempDir('agent-desk-electronegativity-');
afterAll(() => rmSync(app, { recursive: true, force: true }));

describe('electronegativity over the Electron app', () => {
  it('finds no high or medium issue in main, preload and the renderer page', async () => {
    // Global checks (navigation limits, permission handler, CSP) look across the whole app, so
    // the app's own sources are scanned together, without the headless runtime around them.
    for (const part of ['electron/main', 'electron/preload', 'renderer/src'])
      cpSync(path.join(REPO_ROOT, part), path.join(app, part), { recursive: true });
    mkdirSync(path.join(app, 'renderer'), { recursive: true });
    cpSync(path.join(REPO_ROOT, 'renderer/index.html'), path.join(app, 'renderer/index.html'));
    const result = await electronegativity({
      input: app,
      electronVersionOverride: electronVersion,
      // This one downloads Electron's release list; the version is pinned in package.json instead.
      excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
    });
    const serious = result.issues
      .filter((i) => i.severity.name === 'HIGH' || i.severity.name === 'MEDIUM')
      .map((i) => `${i.severity.name} ${i.id} ${path.relative(app, i.file)}:${i.location.line}`);
    expect(serious).toEqual([]);
    expect(result.errors).toEqual([]);
  });

  it('the same scan flags a window that turns the protections off', async () => {
    const broken = path.join(app, 'broken');
    mkdirSync(broken, { recursive: true });
    cpSync(path.join(REPO_ROOT, 'electron/main/windowOptions.ts'), path.join(broken, 'windowOptions.ts'));
    const source =
      "import { BrowserWindow } from 'electron';\nnew BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });\n";
    writeFileSync(path.join(broken, 'index.ts'), source);
    const result = await electronegativity({
      input: broken,
      electronVersionOverride: electronVersion,
      excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
    });
    const ids = result.issues.filter((i) => i.severity.name === 'HIGH').map((i) => i.id);
    expect(ids).toEqual(expect.arrayContaining(['CONTEXT_ISOLATION_JS_CHECK', 'LIMIT_NAVIGATION_GLOBAL_CHECK']));
  });
});
