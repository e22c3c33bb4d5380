/** One hook command to run as a child process. */
export interface HookProcessSpec {
  /** A shell command line (`/bin/sh -c`). */
  command: string;
  /** Written to the command's stdin, then stdin is closed. */
  stdin: string;
  cwd: string;
  /** Variables the runtime adds for the hook (event, task id, workspace); the runner's own base holds no secrets. */
  env: Record<string, string>;
  timeoutMs: number;
}

/** How a hook process ended. Output is what the process wrote, capped by the runner. */
export type HookProcessResult =
  | { kind: 'exited'; exitCode: number | null; signal?: string; stdout: string; stderr: string; durationMs: number }
  | { kind: 'timeout'; stdout: string; stderr: string; durationMs: number }
  | { kind: 'spawn_error'; message: string; durationMs: number };

/** Runs hook commands (capabilities/hooks implements it with child processes). */
export interface HookProcessRunner {
  /** Never rejects: a command that cannot start is a `spawn_error`, one past its timeout a `timeout` (its process group killed). */
  run(spec: HookProcessSpec): Promise<HookProcessResult>;
}
