import { stat } from 'node:fs/promises';
import { runCommand, type CommandRun } from './commandRun.js';
import { describeFileError, resolveInWorkspace } from './fileAccess.js';
import { measureCheck, observed, type Observation } from './measure.js';
import type { CheckOf, Verifier } from './types.js';

type CommandExitCheck = CheckOf<'command_exit'>;

/** Most characters of stdout/stderr kept in the result. */
const MAX_TAIL = 2_000;

/**
 * `command_exit`: argv runs (no shell) in `cwd` (default: the workspace) and exits with the
 * expected code before the timeout. The output shows the exit code and the output's tail.
 */
export const commandExitVerifier: Verifier<CommandExitCheck> = {
  type: 'command_exit',
  run: (check, ctx) =>
    measureCheck(check, async () => {
      const cwd = resolveInWorkspace(ctx.workspace, check.cwd ?? '.');
      const cwdProblem = await folderProblem(cwd);
      if (cwdProblem !== undefined) return { passed: false, output: `cannot run in ${cwd}: ${cwdProblem}` };
      const run = await runCommand(check.command, { cwd, timeoutMs: check.timeoutMs, signal: ctx.signal, maxTail: MAX_TAIL });
      return observe(check, run);
    }),
};

function observe(check: CommandExitCheck, run: CommandRun): Observation {
  const passed = run.stopped === undefined && run.startError === undefined && run.exitCode === check.exitCode;
  const summary = passed ? `exit code ${run.exitCode}` : `${outcome(check, run)} (expected exit code ${check.exitCode})`;
  const output = run.tail === '' ? summary : `${summary}\n${run.tail}`;
  const tail = run.tail === '' ? undefined : run.tail;
  if (passed) return observed(true, output, 'check.exitCode', { code: String(run.exitCode) }, tail);
  const simple = run.startError === undefined && run.stopped === undefined && run.exitCode !== null;
  return simple
    ? observed(false, output, 'check.exitCodeUnexpected', { code: String(run.exitCode), expected: check.exitCode }, tail)
    : { passed, output };
}

function outcome(check: CommandExitCheck, run: CommandRun): string {
  if (run.startError !== undefined) return `cannot start ${JSON.stringify(check.command[0])}: ${run.startError}`;
  if (run.stopped === 'timeout') return `timed out after ${check.timeoutMs} ms and was killed`;
  if (run.stopped === 'cancelled') return 'cancelled and killed';
  if (run.exitCode === null) return `killed by ${run.signal ?? 'a signal'}`;
  return `exit code ${run.exitCode}`;
}

// spawn reports a missing cwd as a missing command; check it first for a truthful message.
async function folderProblem(cwd: string): Promise<string | undefined> {
  try {
    return (await stat(cwd)).isDirectory() ? undefined : 'not a folder';
  } catch (error) {
    return describeFileError(error, cwd);
  }
}
