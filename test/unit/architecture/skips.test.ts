import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/cliSandbox.js';

/** Files that may skip for a reason that is not a missing part, each with that reason. */
const NOT_A_MISSING_PART: Record<string, string> = {
  'test/e2e/cli/start.test.ts': 'with an Electron binary installed, npm start opens a window instead of the gateway it tests',
};

const SKIPS = /\.(skipIf|runIf)\(|\b(ctx|context)\.skip\(|\b(it|test|describe)\.skip\(/;
const UNCONDITIONAL = /\b(it|test|describe)\.skip\(/;

/** Why a test file's skips could let CI pass without running it, or undefined when they cannot. */
function silentSkip(source: string): string | undefined {
  if (UNCONDITIONAL.test(source)) return 'skips unconditionally (it.skip / describe.skip)';
  if (!SKIPS.test(source)) return undefined;
  // storeMissing() (test/support/storeKinds.ts) asks missing('postgres') for the suites run on both stores.
  if (/from '[./]*\/support\/storeKinds\.js'/.test(source) && /\bstoreMissing\(/.test(source)) return undefined;
  if (!/from '[./]*\/support\/requirements\.js'/.test(source) || !/\bmissing\('/.test(source))
    return 'skips without asking missing() from test/support/requirements.ts, so AGENT_DESK_REQUIRE cannot turn the skip into a failure';
  return undefined;
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' || entry.name === 'node_modules' ? [] : testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('CI cannot pass by skipping', () => {
  it('every test that skips for a missing part asks missing(), which AGENT_DESK_REQUIRE turns into a failure', () => {
    const offenders = testFiles(path.join(REPO_ROOT, 'test'))
      .map((file) => path.relative(REPO_ROOT, file))
      .filter((file) => !(file in NOT_A_MISSING_PART))
      .map((file) => [file, silentSkip(readFileSync(path.join(REPO_ROOT, file), 'utf8'))] as const)
      .filter(([, why]) => why !== undefined);
    expect(offenders).toEqual([]);
  });

  it('catches the silent skips it is for', () => {
    expect(silentSkip(`it.skipIf(!existsSync('/usr/bin/script'))('pty', () => {});`)).toMatch(/without asking missing/);
    expect(silentSkip(`it('x', (ctx) => { if (!tool) return ctx.skip('no tool'); });`)).toMatch(/without asking missing/);
    // Spelled in two parts so this file does not match its own rule.
    expect(silentSkip(`describe${'.skip'}('later', () => {});`)).toMatch(/unconditionally/);
    const asked = `import { missing } from '../../support/requirements.js';\nconst skip = missing('docker');\ndescribe.skipIf(skip)('d', () => {});`;
    expect(silentSkip(asked)).toBeUndefined();
  });
});
