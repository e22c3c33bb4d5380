import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (absolute). */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'agent-desk.js');

/** How a CLI run ended, with what it printed. */
export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A CLI process in flight: `done` settles when it exits (killed after `timeoutMs`). */
export interface RunningCli {
  child: ChildProcess;
  done: Promise<CliResult>;
}

/** Starts `agent-desk <args>` with AGENT_DESK_HOME=home and stdin closed (not a terminal). */
export function startCli(args: readonly string[], home: string, timeoutMs = 60_000): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, AGENT_DESK_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const done = new Promise<CliResult>((resolve) =>
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    }),
  );
  return { child, done };
}

/** Runs `agent-desk <args>` to the end. */
export const runCli = (args: readonly string[], home: string, timeoutMs?: number): Promise<CliResult> =>
  startCli(args, home, timeoutMs).done;

/** Parses a run's stdout as JSON, failing with everything it printed. */
// `any` by default: callers assign the result to the shape they expect.
export function jsonOf<T = any>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch (error) {
    throw new Error(`CLI stdout is not JSON (${(error as Error).message}; exit ${result.code})\n${result.stdout}\n${result.stderr}`);
  }
}
