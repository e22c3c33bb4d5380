import { rmSync, writeFileSync } from 'node:fs';
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

/**
 * Makes a local OpenAI-compatible server (e.g. the scripted ModelServer) the CLI home's default
 * model, its API key stored as a user does: typed into `secrets set`. Returns what that printed,
 * for checks that the key never shows.
 */
export async function useLocalModel(cli: CliSandbox, baseUrl: string, key: string): Promise<Finished> {
  const models = {
    providers: { local: { kind: 'openai-chat', baseUrl, apiKeySecret: 'local-key' } },
    defaultModel: 'local:gpt-test',
    prices: { 'gpt-test': { inputPerMTok: 1, outputPerMTok: 2, cachedInputPerMTok: 0.1 } },
  };
  writeFileSync(path.join(cli.home, 'config.json'), JSON.stringify({ models }));
  const setting = cli.spawn(['secrets', 'set', 'local-key']);
  setting.write(key);
  setting.child.stdin?.end();
  const set = await setting.finished(45_000);
  if (set.code !== 0) throw new Error(`secrets set failed: ${explain(set)}`);
  return set;
}
