import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sandboxOwnerOf } from '../../../electron/capabilities/gui/desktopRuntimeParts.js';
import { SandboxDriver } from '../../../electron/capabilities/sandbox/sandboxDriver.js';
import { CliSandbox, examplePlaybook, explain } from '../../support/cliSandbox.js';
import { missing } from '../../support/requirements.js';
import { desktopImage } from '../../support/sandboxImage.js';

const skip = missing('docker');

const SPINNER = `name: spinner
steps:
  - tool: sandbox.write_file
    args:
      path: spin.html
      content: |
        <!doctype html><title>Busy</title>
        <style>@keyframes spin { to { transform: rotate(360deg); } } #s { width: 300px; height: 300px; background: #c00; animation: spin 1s linear infinite; }</style>
        <div id="s"></div>
  - tool: sandbox.browser_open
    args: { url: "file:///home/agent/spin.html" }
  - tool: computer
    args: { action: wait, timeoutMs: 60000 }
`;

describe.skipIf(skip)('agent-desk run with a desktop sandbox', () => {
  let cli: CliSandbox;
  const containers = () => new SandboxDriver({ image: '', owner: sandboxOwnerOf(cli.home) }).list();

  beforeAll(async () => {
    await desktopImage(); // build-or-reuse once, through the same path as `agent-desk sandbox build`
  }, 600_000);
  afterEach(async () => {
    await cli?.cleanup();
  });

  it('sandbox-form fills a local page by GUI clicks and typing (中文) in a fresh container, passes its sandbox checks and leaves no container', async () => {
    cli = new CliSandbox();
    const result = await cli.run(['run', examplePlaybook('sandbox-form.yaml'), '--json'], { timeoutMs: 240_000 });
    expect(result.code, explain(result)).toBe(0);
    const out = result.json<{
      task: { state: string };
      checks: { name: string; passed: boolean; output: string }[];
      steps: { tool: string }[];
    }>();
    expect(out.task.state).toBe('succeeded');
    expect(out.checks.map((c) => [c.name, c.passed])).toEqual([
      ['note saved in the sandbox', true],
      ['exact bytes', true],
    ]);
    expect(out.checks[0]!.output).toContain('Hello 你好, 世界');
    expect(out.steps.filter((s) => s.tool === 'computer')).toHaveLength(4);
    expect(await containers()).toEqual([]);
  }, 300_000);

  it('a runtime killed mid-task leaves its sandbox behind, and the next start reaps it', async () => {
    cli = new CliSandbox();
    const playbook = path.join(cli.home, 'spinner.yaml');
    writeFileSync(playbook, SPINNER);
    const run = cli.spawn(['run', playbook, '--json']);
    run.child.stdin?.end();
    await expect.poll(async () => (await containers()).length, { timeout: 120_000, interval: 200 }).toBe(1);
    run.child.kill('SIGKILL');
    await run.finished(30_000).catch(() => undefined);
    expect(await containers()).toHaveLength(1); // nobody removed it: the owner died
    const next = await cli.run(['tasks', 'list', '--json']);
    expect(next.code, explain(next)).toBe(0);
    expect(await containers()).toEqual([]);
  }, 300_000);
});
