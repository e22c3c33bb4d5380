import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Step } from '../../../electron/contract/index.js';
import { CliSandbox, examplePlaybook, explain } from '../../support/cliSandbox.js';

let cli: CliSandbox;
beforeEach(() => {
  cli = new CliSandbox();
});
afterEach(async () => {
  await cli.cleanup();
});

describe('hooks from the CLI', () => {
  it('a PreToolUse hook denies the example cleanup’s delete: the run fails with the hook’s reason and `tasks show` prints it', async () => {
    const dir = path.join(cli.home, 'hooks');
    mkdirSync(dir, { recursive: true });
    const guard = path.join(dir, 'keep-logs.sh');
    writeFileSync(guard, '#!/bin/sh\ncat >/dev/null\necho "logs are kept for the audit" >&2\nexit 2\n', { mode: 0o755 });
    const hooks = { PreToolUse: [{ matcher: 'fs.delete', hooks: [{ type: 'command', command: guard }] }] };
    writeFileSync(path.join(cli.home, 'config.json'), JSON.stringify({ hooks }));

    const run = await cli.run(['run', examplePlaybook('cleanup-old-logs.yaml'), '--json']);
    expect(run.code, explain(run)).toBe(1);
    const report = run.json<{ task: { id: string; state: string; stateReason: string; workspace: string } }>();
    expect(report.task.stateReason).toBe('step 4 (fs.delete) denied by PreToolUse hook: logs are kept for the audit');
    expect(existsSync(path.join(report.task.workspace, 'logs/app-2026-10.log'))).toBe(true);

    const shown = await cli.run(['tasks', 'show', report.task.id]);
    expect(shown.code, explain(shown)).toBe(0);
    expect(shown.stdout).toMatch(/denied\s+fs\.delete\s.*denied by PreToolUse hook: logs are kept for the audit/);

    const json = await cli.run(['tasks', 'show', report.task.id, '--json', '--trace']);
    const { steps, trace } = json.json<{ steps: Step[]; trace: { type: string; data: Record<string, unknown> }[] }>();
    expect(steps.at(-1)!.policy).toMatchObject({ effect: 'deny', source: 'hook' });
    expect(trace.find((e) => e.type === 'hook.run')).toMatchObject({ data: { event: 'PreToolUse', command: guard, exitCode: 2 } });
  });

  it('a bad hooks section is one line per problem, not a stack trace', async () => {
    writeFileSync(
      path.join(cli.home, 'config.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'x', timeout: 'soon' }] }] } }),
    );
    const listed = await cli.run(['tasks', 'list']);
    expect(listed.code).toBe(2);
    expect(listed.stderr).toMatch(/hooks\.PreToolUse\[0\]\.hooks\[0\]\.timeout: .*expected number, (received|got) string/);
    expect(listed.stderr).not.toMatch(/\n\s+at /);
  });
});
