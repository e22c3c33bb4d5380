import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sandboxOwnerOf } from '../../../electron/capabilities/gui/desktopModule.js';
import type { SandboxInfo } from '../../../electron/contract/index.js';
import { CliSandbox, examplePlaybook, explain } from '../../support/cliSandbox.js';
import { pollUntil } from '../../support/poll.js';
import { missing } from '../../support/requirements.js';
import { startServe } from '../../support/serveProcess.js';
import { configureDesktop, desktopContainers, desktopImage } from '../../support/sandboxImage.js';

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
  const containers = () => desktopContainers(cli.home);

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

  it('a runtime killed mid-task leaves its sandbox behind; kept while the task may resume, reaped once it is over', async () => {
    cli = new CliSandbox();
    const playbook = path.join(cli.home, 'spinner.yaml');
    writeFileSync(playbook, SPINNER);
    const run = cli.spawn(['run', playbook, '--json']);
    run.child.stdin?.end();
    // Killed once the desktop is the task's (a container not yet assigned to a task is a plain orphan, reaped).
    const assigned = async () => {
      const listed = await cli.run(['sandbox', 'list', '--json']);
      return listed.code === 0 ? listed.json<{ sandboxes: SandboxInfo[] }>().sandboxes.filter((s) => s.task !== undefined).length : 0;
    };
    await expect.poll(assigned, { timeout: 120_000, interval: 200 }).toBe(1);
    run.child.kill('SIGKILL');
    await run.finished(30_000).catch(() => undefined);
    expect(await containers()).toHaveLength(1); // nobody removed it: the owner died
    // The next runtime that talks to Docker keeps it: the interrupted task may resume and adopt it.
    const [task] = (await cli.run(['tasks', 'list', '--json'])).json<{ tasks: { id: string }[] }>().tasks;
    const kept = await cli.run(['sandbox', 'list', '--json']);
    expect(kept.code, explain(kept)).toBe(0);
    expect(kept.json<{ sandboxes: SandboxInfo[] }>().sandboxes.map((s) => s.task)).toEqual([task!.id]);
    // Once the task is over, the next start reaps it (read-only commands such as `tasks list` do not talk to Docker).
    const cancelled = await cli.run(['tasks', 'cancel', task!.id, '--json']);
    expect(cancelled.code, explain(cancelled)).toBe(0);
    const next = await cli.run(['sandbox', 'list', '--json']);
    expect(next.code, explain(next)).toBe(0);
    expect(next.json()).toEqual({ sandboxes: [] });
    expect(await containers()).toEqual([]);
  }, 300_000);

  it('serve fills the warm pool at start; sandbox list shows the container and sandbox destroy removes it', async () => {
    cli = new CliSandbox();
    await configureDesktop(cli, { poolSize: 1 });
    const serve = await startServe(cli, 60_000);
    const listed = await pollUntil(
      'the warm sandbox in `sandbox list`',
      async () => {
        const r = await cli.run(['sandbox', 'list', '--json']);
        if (r.code !== 0) throw new Error(explain(r));
        const { sandboxes } = r.json<{ sandboxes: SandboxInfo[] }>();
        return sandboxes.length === 1 && sandboxes[0]!.state === 'running' ? sandboxes : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    expect(listed[0]).toMatchObject({ pid: serve.info.pid, owner: sandboxOwnerOf(cli.home) });
    expect(listed[0]!.task).toBeUndefined(); // a warm container belongs to no task yet

    const table = await cli.run(['sandbox', 'list']);
    expect(table.stdout).toContain(listed[0]!.name);
    expect(table.stdout).toContain('(warm pool)');

    const unknown = await cli.run(['sandbox', 'destroy', 'agent-desk-sbx-none', '--json']);
    expect(unknown.code, explain(unknown)).toBe(2);
    expect(unknown.json()).toMatchObject({ error: { code: 'not_found' } });

    const destroyed = await cli.run(['sandbox', 'destroy', listed[0]!.id.slice(0, 12)]);
    expect(destroyed.code, explain(destroyed)).toBe(0);
    expect(destroyed.stdout).toContain(`destroyed ${listed[0]!.id.slice(0, 12)}`);
    expect(await containers()).toEqual([]);
    const empty = await cli.run(['sandbox', 'list', '--json']);
    expect(empty.json()).toEqual({ sandboxes: [] });
  }, 300_000);
});
