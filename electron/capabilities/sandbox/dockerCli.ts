import { spawn } from 'node:child_process';
import { AgentDeskError } from '../../runtime/errors.js';

/** How a docker CLI call ended. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the docker CLI (it honours DOCKER_HOST like the driver does). `input` is piped to stdin;
 * `echo` streams output to our stderr (long builds show progress).
 */
export function docker(
  args: readonly string[],
  opts: { input?: NodeJS.ReadableStream; echo?: boolean; file?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(opts.file ?? 'docker', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (opts.echo) process.stderr.write(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-20_000);
      if (opts.echo) process.stderr.write(d);
    });
    child.on('error', (error) => reject(new AgentDeskError('unavailable', `cannot run ${opts.file ?? 'docker'}: ${error.message}`)));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    if (opts.input) opts.input.pipe(child.stdin);
    else child.stdin.end();
  });
}

/** Like `docker` but a non-zero exit is an `unavailable` error carrying stderr's tail. */
export async function dockerOk(args: readonly string[], opts: Parameters<typeof docker>[1] = {}): Promise<string> {
  const result = await docker(args, opts);
  if (result.code !== 0)
    throw new AgentDeskError(
      'unavailable',
      `${opts.file ?? 'docker'} ${args[0]} failed (exit ${result.code}): ${result.stderr.trim().slice(-2_000)}`,
    );
  return result.stdout;
}

/** True when the engine knows an image by this reference. */
export async function imageExists(ref: string): Promise<boolean> {
  return (await docker(['image', 'inspect', '--format', '{{.Id}}', ref])).code === 0;
}
