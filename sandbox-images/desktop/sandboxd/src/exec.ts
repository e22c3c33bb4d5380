import { spawn } from 'node:child_process';
import type { SandboxdResult } from '../../../../electron/contract/sandboxProtocol.js';
import { insideHome } from './home.js';

const MAX_OUTPUT = 64_000;

/** exec.run: argv (no shell) in a folder under home, killed after the timeout. */
export function runCommand(p: { command: string[]; cwd?: string | undefined; timeoutMs: number }): Promise<SandboxdResult<'exec.run'>> {
  return new Promise((resolve) => {
    const [file, ...args] = p.command as [string, ...string[]];
    const child = spawn(file, args, { cwd: insideHome(p.cwd ?? '.'), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => (stdout = (stdout + d.toString('utf8')).slice(-MAX_OUTPUT)));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString('utf8')).slice(-MAX_OUTPUT)));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, p.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ exitCode: 127, signal: null, timedOut, stdout, stderr: stderr + error.message });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ exitCode: code, signal, timedOut, stdout, stderr });
    });
  });
}
