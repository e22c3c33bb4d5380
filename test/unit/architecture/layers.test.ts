import { createRequire } from 'node:module';
import path from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const require = createRequire(import.meta.url);
const config = require(path.join(root, '.dependency-cruiser.cjs'));

async function violationsIn(baseDir: string, folders: string[]): Promise<string[]> {
  const result = await cruise(folders, {
    baseDir,
    ruleSet: { forbidden: config.forbidden },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    // node_modules must stay visible (not excluded) or imports of electron/playwright would vanish.
    exclude: { path: '(^|/)dist/' },
    validate: true,
  });
  const output = result.output as ICruiseResult;
  return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
}

describe('layer arrows', () => {
  it('the source tree breaks no arrow', async () => {
    const folders = ['electron', 'renderer'].filter((f) => require('node:fs').existsSync(path.join(root, f)));
    expect(await violationsIn(root, folders)).toEqual([]);
  });

  it('the check catches a runtime importing electron or the OpenTelemetry SDK and a contract importing the runtime', async () => {
    const fixture = path.join(root, 'test/fixtures/layers/broken');
    const violations = await violationsIn(fixture, ['electron']);
    expect(violations.some((v) => v.startsWith('runtime-stays-pure') && /→ .*\belectron\b/.test(v))).toBe(true);
    expect(violations.some((v) => v.startsWith('runtime-stays-pure') && /→ .*playwright/.test(v))).toBe(true);
    expect(violations.some((v) => v.startsWith('contract-imports-only-zod'))).toBe(true);
    expect(violations.some((v) => v.startsWith('runtime-uses-otel-api-only') && /→ .*sdk-trace-node/.test(v))).toBe(true);
    expect(violations.some((v) => v.startsWith('runtime-uses-otel-api-only') && /→ .*opentelemetry\/api\b/.test(v))).toBe(false);
  });

  it('a planted import circle fails the check', async () => {
    const fixture = path.join(root, 'test/fixtures/layers/circular');
    const violations = await violationsIn(fixture, ['electron']);
    expect(violations).toContain('no-circular-in-electron: electron/runtime/a.ts → electron/runtime/b.ts');
    expect(violations).toContain('no-circular-in-electron: electron/runtime/types/left.ts → electron/runtime/types/right.ts');
  });

  it('a feature module importing the assembled runtime fails the check', async () => {
    const fixture = path.join(root, 'test/fixtures/layers/assembly');
    const violations = await violationsIn(fixture, ['electron']);
    expect(violations).toContain(
      'only-roots-import-the-assembly: electron/runtime/memory/memoryModule.ts → electron/runtime/assembleRuntime.ts',
    );
    expect(violations.filter((v) => v.includes('electron/capabilities/composition/openRuntime.ts'))).toEqual([]);
    expect(violations).toContain(
      'no-runtime-service-locator: electron/runtime/tasks/usesAgentRuntime.ts → electron/runtime/agentRuntime.ts',
    );
  });
});
