import { spawn, type ChildProcess } from 'node:child_process';
import { errorText } from './measure.js';

/** How a command run ended. */
export interface CommandRun {
  /** Exit code, or null when killed by a signal or never started. */
  exitCode: number | null;
  /** The signal that ended it, if any. */
  signal: NodeJS.Signals | null;
  /** Set when the runtime stopped it. */
  stopped?: 'timeout' | 'cancelled';
  /** Set when the command could not be started (e.g. not found). */
  startError?: string;
  /** The last characters of stdout and stderr, interleaved as they arrived. */
  tail: string;
}

/** What runCommand needs besides argv. */
export interface RunOptions {
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  maxTail: number;
}

// After the process exits, how long to wait for pipes held open by escaped grandchildren.
const PIPE_GRACE_MS = 2_000;

/**
 * Runs argv without a shell. On timeout or cancellation the whole process group is killed, so
 * children of the command (e.g. a test runner's workers) do not outlive the check.
 */
export function runCommand(argv: readonly string[], options: RunOptions): Promise<CommandRun> {
  return new Promise((resolve) => {
    const [file = '', ...args] = argv;
    const tail = new OutputTail(options.maxTail);
    const child = spawn(file, args, {
      cwd: options.cwd,
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    let stopped: CommandRun['stopped'];
    let settled = false;
    const stop = (why: 'timeout' | 'cancelled') => {
      stopped ??= why;
      killGroup(child);
    };
    const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
    const onAbort = () => stop('cancelled');
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (options.signal.aborted) onAbort();
    const finish = (run: Omit<CommandRun, 'tail' | 'stopped'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      resolve({ ...run, ...(stopped === undefined ? {} : { stopped }), tail: tail.text() });
    };
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => tail.push(chunk));
    }
    child.on('error', (error) => finish({ exitCode: null, signal: null, startError: errorText(error) }));
    child.on('close', (exitCode, signal) => finish({ exitCode, signal }));
    child.on('exit', (exitCode, signal) => {
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish({ exitCode, signal });
      }, PIPE_GRACE_MS).unref();
    });
  });
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    // A negative pid addresses the process group the detached child leads.
    process.kill(process.platform === 'win32' ? child.pid : -child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** Keeps only the last `max` characters of a stream of text. */
class OutputTail {
  private buffer = '';
  private cut = false;

  constructor(private readonly max: number) {}

  push(chunk: string): void {
    this.buffer += chunk;
    // Trim lazily so a chatty command costs linear time, not quadratic.
    if (this.buffer.length > this.max * 2) this.trim();
  }

  text(): string {
    this.trim();
    return this.cut ? `…${this.buffer.slice(1)}` : this.buffer;
  }

  private trim(): void {
    if (this.buffer.length <= this.max) return;
    this.buffer = this.buffer.slice(-this.max);
    this.cut = true;
  }
}
