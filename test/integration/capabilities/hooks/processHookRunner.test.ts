import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookProcessEnv, ProcessHookRunner } from '../../../../electron/capabilities/hooks/processHookRunner.js';
import { pollUntil } from '../../../support/poll.js';
import { tempDir } from '../../../support/runtime.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function workspace(): string {
  const dir = tempDir('hook-runner-');
  dirs.push(dir);
  return dir;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('hook commands as child processes', () => {
  it('get the event on stdin, run in the workspace, and report exit code and output', async () => {
    const cwd = workspace();
    const result = await new ProcessHookRunner().run({
      command: 'cat > got.json; pwd; echo oops >&2; exit 3',
      stdin: '{"hook_event_name":"PreToolUse"}',
      cwd,
      env: { AGENT_DESK_HOOK_EVENT: 'PreToolUse' },
      timeoutMs: 10_000,
    });
    expect(result).toMatchObject({ kind: 'exited', exitCode: 3, stdout: `${cwd}\n`, stderr: 'oops\n' });
    expect(readFileSync(path.join(cwd, 'got.json'), 'utf8')).toBe('{"hook_event_name":"PreToolUse"}');
  });

  it("never see the runtime's tokens, keys or secret inputs, only the allowed variables and the runtime's own", async () => {
    const cwd = workspace();
    const base = {
      PATH: process.env.PATH,
      HOME: '/home/someone',
      LC_ALL: 'C.UTF-8',
      AGENT_DESK_TOKEN: 'gateway-token-value',
      AGENT_DESK_INPUT_PASSWORD: 'hunter2-secret',
      OPENAI_API_KEY: 'sk-live-key',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer x',
    };
    const result = await new ProcessHookRunner(base).run({
      command: 'env',
      stdin: '',
      cwd,
      env: { AGENT_DESK_TASK_ID: 'tsk_1' },
      timeoutMs: 10_000,
    });
    expect(result.kind).toBe('exited');
    const env = result.kind === 'exited' ? result.stdout : '';
    expect(env).toContain('AGENT_DESK_TASK_ID=tsk_1');
    expect(env).toContain('HOME=/home/someone');
    expect(env).toContain('LC_ALL=C.UTF-8');
    for (const secret of ['gateway-token-value', 'hunter2-secret', 'sk-live-key', 'Bearer x']) expect(env).not.toContain(secret);
    expect(hookProcessEnv({}, {}).PATH).toBeTruthy();
  });

  it('a command that hangs is killed at its timeout with everything it started', async () => {
    const cwd = workspace();
    // The shell starts a grandchild and waits; the grandchild's pid tells whether the group died.
    const result = await new ProcessHookRunner().run({
      command: 'sleep 300 & echo $! > child.pid; echo started; wait',
      stdin: '',
      cwd,
      env: {},
      timeoutMs: 2000,
    });
    expect(result).toMatchObject({ kind: 'timeout', stdout: 'started\n' });
    const child = Number(readFileSync(path.join(cwd, 'child.pid'), 'utf8'));
    await pollUntil('the grandchild to be gone', () => (alive(child) ? undefined : true));
  });

  it('a hook that cannot start is a spawn error, not a crash; one that never reads stdin is fine', async () => {
    const runner = new ProcessHookRunner();
    const gone = path.join(workspace(), 'missing');
    expect(await runner.run({ command: 'true', stdin: '', cwd: gone, env: {}, timeoutMs: 1000 })).toEqual({
      kind: 'spawn_error',
      message: `the working directory ${gone} does not exist`,
      durationMs: 0,
    });
    const cwd = workspace();
    const big = 'x'.repeat(2_000_000);
    expect(await runner.run({ command: 'exit 0', stdin: big, cwd, env: {}, timeoutMs: 10_000 })).toMatchObject({
      kind: 'exited',
      exitCode: 0,
    });
    expect(await runner.run({ command: 'no-such-command-here', stdin: '', cwd, env: {}, timeoutMs: 10_000 })).toMatchObject({
      kind: 'exited',
      exitCode: 127,
    });
  });
});
