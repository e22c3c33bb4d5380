import type { AcceptanceCheck, CheckResult } from '../../contract/index.js';
import type { CheckRunner } from '../../runtime/engine/ports.js';
import { runChecks } from '../../runtime/verify/index.js';
import { measureCheck, truncate, type Observation } from '../../runtime/verify/measure.js';
import type { DesktopSession } from './desktopSession.js';
import type { TaskDesktops } from './taskDesktops.js';

async function observeInSandbox(check: AcceptanceCheck, session: DesktopSession): Promise<Observation> {
  const call = session.sandbox.call.bind(session.sandbox);
  switch (check.type) {
    case 'file_exists': {
      const stat = await call('files.stat', { path: check.path });
      return {
        passed: stat.exists === check.exists,
        output: stat.exists ? `exists in the sandbox: ${check.path}` : `not found in the sandbox: ${check.path}`,
      };
    }
    case 'file_sha256': {
      const stat = await call('files.stat', { path: check.path });
      if (!stat.exists) return { passed: false, output: `not found in the sandbox: ${check.path}` };
      return { passed: stat.sha256 === check.sha256.toLowerCase(), output: `sha256 ${stat.sha256 ?? '(not a file)'}` };
    }
    case 'file_contains': {
      const stat = await call('files.stat', { path: check.path });
      if (!stat.exists) return { passed: false, output: `not found in the sandbox: ${check.path}` };
      const { data } = await call('files.read', { path: check.path });
      const passed = check.text !== undefined ? data.includes(check.text) : new RegExp(check.pattern!).test(data);
      return { passed, output: `${passed ? 'found' : 'not found'} in ${check.path}: ${truncate(data, 300)}` };
    }
    case 'command_exit': {
      const run = await call(
        'exec.run',
        { command: check.command, ...(check.cwd ? { cwd: check.cwd } : {}), timeoutMs: check.timeoutMs },
        check.timeoutMs + 5_000,
      );
      const passed = !run.timedOut && run.exitCode === check.exitCode;
      const tail = truncate(`${run.stdout}${run.stderr}`.trim(), 2_000);
      const summary = run.timedOut ? `timed out after ${check.timeoutMs} ms` : `exit code ${run.exitCode} in the sandbox`;
      return { passed, output: `${summary}${passed ? '' : ` (expected ${check.exitCode})`}${tail ? `\n${tail}` : ''}` };
    }
    default:
      return { passed: false, output: `${check.type} cannot run in the sandbox (command_exit and file checks can)` };
  }
}

/**
 * The check runner with sandbox checks: a check marked `sandbox: true` runs inside the task's
 * desktop container (paths under its home); every other check runs as before.
 */
export function sandboxAwareChecks(desktops: TaskDesktops): CheckRunner {
  return async (checks, ctx) => {
    const results: CheckResult[] = [];
    for (const check of checks) {
      if (!check.sandbox) {
        results.push(...(await runChecks([check], ctx)));
        continue;
      }
      const session = desktops.peek(ctx.workspace);
      results.push(
        await measureCheck(check, async () =>
          session
            ? observeInSandbox(check, session)
            : { passed: false, output: 'this task has no desktop sandbox (no GUI or sandbox step ran)' },
        ),
      );
    }
    return results;
  };
}
