import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { HookProcessResult, HookProcessRunner, HookProcessSpec } from '../../runtime/hooks/ports.js';

/** Output kept per stream; the rest is dropped (the trace keeps less still). */
const OUTPUT_CAP = 64 * 1024;

/**
 * Variables a hook inherits from the runtime's environment: only these, so tokens, provider
 * keys, secret inputs (`AGENT_DESK_INPUT_*`) and exporter headers never reach a hook.
 */
const INHERITED = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR', 'TERM'];

/** The secret-free environment a hook runs with: the inherited names, `LC_*`, and the runtime's own variables. */
export function hookProcessEnv(base: NodeJS.ProcessEnv, extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && (INHERITED.includes(name) || name.startsWith('LC_'))) env[name] = value;
  }
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  return { ...env, ...extra };
}

/**
 * Runs hook commands with `/bin/sh -c` in their own process group, so a timeout kills the
 * command and everything it started. Never rejects.
 */
export class ProcessHookRunner implements HookProcessRunner {
  constructor(private readonly baseEnv: NodeJS.ProcessEnv = process.env) {}

  run(spec: HookProcessSpec): Promise<HookProcessResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    if (!existsSync(spec.cwd)) {
      return Promise.resolve({ kind: 'spawn_error', message: `the working directory ${spec.cwd} does not exist`, durationMs: 0 });
    }
    return new Promise((resolve) => {
      const child = spawn('/bin/sh', ['-c', spec.command], {
        cwd: spec.cwd,
        env: hookProcessEnv(this.baseEnv, spec.env),
        detached: true, // its own process group: the timeout kills the whole tree
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const out = capture(child.stdout);
      const err = capture(child.stderr);
      let settled = false;
      const settle = (result: HookProcessResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const timer = setTimeout(() => {
        killGroup(child.pid);
        // A grandchild that left the group could keep the pipes open: answer now, drop the rest.
        child.stdout.destroy();
        child.stderr.destroy();
        settle({ kind: 'timeout', stdout: out(), stderr: err(), durationMs: elapsed() });
      }, spec.timeoutMs);
      child.on('error', (error) => settle({ kind: 'spawn_error', message: error.message, durationMs: elapsed() }));
      child.on('close', (code, signal) =>
        settle({ kind: 'exited', exitCode: code, ...(signal && { signal }), stdout: out(), stderr: err(), durationMs: elapsed() }),
      );
      child.stdin.on('error', () => undefined); // a hook that never reads its stdin is fine
      child.stdin.end(spec.stdin);
    });
  }
}

function capture(stream: NodeJS.ReadableStream): () => string {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    if (size >= OUTPUT_CAP) return;
    chunks.push(chunk.subarray(0, OUTPUT_CAP - size));
    size += chunk.length;
  });
  stream.on('error', () => undefined);
  return () => Buffer.concat(chunks).toString('utf8');
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
