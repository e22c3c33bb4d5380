import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { CLI_BIN, CliSandbox, examplePlaybook, useLocalModel } from '../../support/cliSandbox.js';
import { ModelServer } from '../../support/modelServer.js';
import { missing } from '../../support/requirements.js';

const quote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

let cli: CliSandbox;
beforeEach(() => {
  cli = new CliSandbox();
});
afterEach(async () => {
  await cli.cleanup();
});

describe('agent-desk run on a terminal', () => {
  it('asks for the approval on the terminal and finishes the task when the user answers y', async (ctx) => {
    const noScript = missing('script');
    if (noScript) return ctx.skip(noScript);
    const command = [process.execPath, CLI_BIN, 'run', examplePlaybook('cleanup-old-logs.yaml')].map(quote).join(' ');
    // script gives the CLI a pseudo-terminal; what we write to its stdin is what the user types.
    const term = cli.spawnCommand('script', ['-qfec', command, '/dev/null']);

    await term.waitForOutput(/Approval needed — Delete logs\/app-2026-10\.log[\s\S]*\[n\]o: /, 45_000);
    term.write('y\n');
    const done = await term.finished(45_000);

    expect(done.code, term.describe()).toBe(0);
    const summary = done.stdout.match(/(tsk_\w+)\s+succeeded: all 2 acceptance checks passed/);
    expect(summary, term.describe()).not.toBeNull();
    expect(done.stdout).toContain('PASS  old log is gone');
    expect(done.stdout).toContain('PASS  current log is kept');
    // The decision is recorded as coming from the terminal, and the old log is really gone.
    const shown = await cli.run(['tasks', 'show', summary![1]!, '--json', '--trace']);
    const { task, trace } = shown.json<{ task: { workspace: string }; trace: { type: string; data: Record<string, unknown> }[] }>();
    expect(trace).toContainEqual(
      expect.objectContaining({ type: 'approval.resolved', data: expect.objectContaining({ status: 'approved', by: 'cli:terminal' }) }),
    );
    expect(existsSync(path.join(task.workspace, 'logs/app-2026-10.log'))).toBe(false);
    expect(readFileSync(path.join(task.workspace, 'logs/app-2026-11.log'), 'utf8')).toContain('started');
    // On a terminal the progress is in colour; the same run with --json prints no escape codes.
    expect(done.stdout).toContain('\x1b[32msucceeded\x1b[0m');
  }, 120_000);

  it('Ctrl-C at the approval prompt exits at once, leaves the task waiting, and run --resume asks again and finishes', async (ctx) => {
    const noScript = missing('script');
    if (noScript) return ctx.skip(noScript);
    const run = (args: string[]) =>
      cli.spawnCommand('script', ['-qfec', [process.execPath, CLI_BIN, ...args].map(quote).join(' '), '/dev/null']);
    const first = run(['run', examplePlaybook('cleanup-old-logs.yaml')]);
    await first.waitForOutput(/\[n\]o: /, 45_000);
    first.write('\x03');
    const stopped = await first.finished(10_000);
    expect(stopped.code, first.describe()).toBe(130);
    const hint = /continue with: (node bin\/agent-desk\.js) run --resume (tsk_\w+)/.exec(stopped.stdout);
    expect(hint, first.describe()).not.toBeNull();
    const taskId = hint![2]!;
    const shown = await cli.run(['tasks', 'show', taskId, '--json']);
    expect(shown.json<{ task: { state: string } }>().task.state).toBe('waiting_approval');

    // The hint works as printed (from the repository root, where the README runs it).
    const resumed = run(['run', '--resume', taskId]);
    await resumed.waitForOutput(/Approval needed — Delete logs\/app-2026-10\.log[\s\S]*\[n\]o: /, 45_000);
    resumed.write('y\n');
    const done = await resumed.finished(45_000);
    expect(done.code, resumed.describe()).toBe(0);
    expect(done.stdout).toContain(`${taskId}  succeeded`);
  }, 120_000);

  it('a goal task shows a spinner while the model is called, and none once it is done', async (ctx) => {
    const noScript = missing('script');
    if (noScript) return ctx.skip(noScript);
    const server = await new ModelServer().start();
    try {
      await useLocalModel(cli, server.url, 'sk-e2e-terminal-5c1d9e7f3a');
      const checks = path.join(cli.home, 'checks.json');
      writeFileSync(checks, JSON.stringify([{ type: 'file_contains', name: 'greeting', path: 'hello.txt', text: 'hello world' }]));
      server.script(
        'chat',
        { toolCalls: [{ name: 'fs_write', arguments: { path: 'hello.txt', content: 'hello world' } }], usage: { input: 900, output: 60 } },
        { text: 'Wrote hello.txt.', usage: { input: 1000, output: 10 } },
      );
      const command = [process.execPath, CLI_BIN, 'run', '--goal', 'Write hello world into hello.txt', '--checks', checks]
        .map(quote)
        .join(' ');
      const done = await cli.spawnCommand('script', ['-qfec', command, '/dev/null']).finished(60_000);
      expect(done.code, done.stdout).toBe(0);
      expect(done.stdout).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]\x1b\[0m waiting for the model…/);
      // The last thing on the terminal is the report, not a spinner frame.
      expect(done.stdout.trimEnd().split('\n').at(-1)).not.toContain('waiting for the model');
    } finally {
      await server.close();
    }
  }, 90_000);

  it('without a terminal (--json) nothing is coloured and no spinner is drawn', async () => {
    const result = await cli.run(['run', examplePlaybook('inventory-report.yaml'), '--json']);
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain('\x1b[');
  }, 60_000);
});
