import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { killProcessesOfHome, ProcessPool, type ChildHandle, type Finished } from './processes.js';
import { tempDir } from './runtime.js';

/** The repository root (absolute). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The `agent-desk` launcher. */
export const CLI_BIN = path.join(REPO_ROOT, 'bin', 'agent-desk.js');
/** An example playbook by file name. */
export const examplePlaybook = (name: string): string => path.join(REPO_ROOT, 'examples', 'playbooks', name);
/** A test fixture playbook by file name. */
export const fixturePlaybook = (name: string): string => path.join(REPO_ROOT, 'test', 'fixtures', 'playbooks', name);

/** A child's environment: this process's, with a data folder of its own and no stray agent-desk settings. */
export function cliEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('AGENT_DESK_')) delete env[name];
  return { ...env, AGENT_DESK_HOME: home, ...extra };
}

/** A finished CLI run; `json()` parses stdout or fails with everything the CLI printed. */
export interface CliResult extends Finished {
  json<T = unknown>(): T;
}

/** Options of one CLI invocation. */
export interface CliOptions {
  /** Kill the CLI (and its services) and fail when it runs longer; default 45 s. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/**
 * One isolated CLI user: a fresh AGENT_DESK_HOME and every process started from it.
 * `cleanup()` (for afterEach) kills them all, playbook services included, and removes the folder.
 */
export class CliSandbox {
  readonly home = tempDir('agent-desk-e2e-');
  readonly pool = new ProcessPool();

  /** Starts `agent-desk <args>` from the repository root with stdin piped (not a terminal). */
  spawn(args: readonly string[], env: NodeJS.ProcessEnv = {}): ChildHandle {
    return this.pool.spawn(
      { command: process.execPath, args: [CLI_BIN, ...args], cwd: REPO_ROOT, env: cliEnv(this.home, env) },
      `agent-desk ${args.join(' ')}`,
    );
  }

  /** Runs `agent-desk <args>` to the end with stdin closed, as a script would. */
  async run(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
    const child = this.spawn(args, options.env);
    child.child.stdin?.end();
    const finished = await child.finished(options.timeoutMs ?? 45_000);
    return {
      ...finished,
      json() {
        try {
          return JSON.parse(finished.stdout);
        } catch (error) {
          throw new Error(`stdout of ${child.label} (exit ${finished.code}) is not JSON: ${(error as Error).message}\n${child.describe()}`);
        }
      },
    };
  }

  /** Starts any command with this sandbox's environment (e.g. `script`), tracked for cleanup. */
  spawnCommand(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): ChildHandle {
    return this.pool.spawn({ command, args, cwd: REPO_ROOT, env: cliEnv(this.home, env) });
  }

  async cleanup(): Promise<void> {
    await this.pool.killAll();
    killProcessesOfHome(this.home);
    rmSync(this.home, { recursive: true, force: true });
  }
}

/** Explains a CLI result in a failed assertion. */
export const explain = (result: Finished): string =>
  `exit ${result.code}${result.signal ? ` (${result.signal})` : ''}\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`;
