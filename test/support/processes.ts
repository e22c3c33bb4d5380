import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** How a child process ended, with everything it printed. */
export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** What to start: a command with its arguments, working folder and environment. */
export interface SpawnSpec {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** A running child with its output so far; it leads its own process group. */
export class ChildHandle {
  stdout = '';
  stderr = '';
  readonly exited: Promise<Finished>;
  private ended: Finished | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly child: ChildProcess,
    readonly label: string,
  ) {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => this.append('stdout', chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.append('stderr', chunk));
    // A child killed before it reads its stdin must not crash the test with EPIPE.
    child.stdin?.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      child.once('error', (error) => {
        this.stderr += `\n[spawn error] ${error.message}`;
        this.ended = { code: null, signal: null, stdout: this.stdout, stderr: this.stderr };
        this.notify();
        resolve(this.ended);
      });
      child.once('close', (code, signal) => {
        this.ended = { code, signal, stdout: this.stdout, stderr: this.stderr };
        this.notify();
        resolve(this.ended);
      });
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get running(): boolean {
    return this.ended === undefined;
  }

  /** Output so far, stdout then stderr, for failure messages. */
  describe(): string {
    return `${this.label}\n--- stdout ---\n${this.stdout}\n--- stderr ---\n${this.stderr}`;
  }

  /** Writes to the child's stdin. */
  write(text: string): void {
    this.child.stdin?.write(text);
  }

  /** Resolves with the matched text once stdout or stderr matches; rejects if the child ends first. */
  waitForOutput(pattern: RegExp, timeoutMs = 30_000): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const match = this.stdout.match(pattern) ?? this.stderr.match(pattern);
        if (match) return finish(() => resolve(match));
        if (!this.running) return finish(() => reject(new Error(`${pattern} never appeared; the child ended first.\n${this.describe()}`)));
        return false;
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`${pattern} did not appear within ${timeoutMs} ms.\n${this.describe()}`))),
        timeoutMs,
      );
      const finish = (settle: () => void): true => {
        clearTimeout(timer);
        this.listeners.delete(check);
        settle();
        return true;
      };
      this.listeners.add(check);
      check();
    });
  }

  /** Resolves when the child ends; kills it (and its group) and rejects if that takes longer than timeoutMs. */
  async finished(timeoutMs: number): Promise<Finished> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs)));
    const outcome = await Promise.race([this.exited, late]);
    clearTimeout(timer);
    if (outcome !== 'late') return outcome;
    await this.kill();
    throw new Error(`${this.label} did not finish within ${timeoutMs} ms and was killed.\n${this.describe()}`);
  }

  /** Sends a signal to the child's whole process group (so its playbook services go too) and waits for it. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<Finished> {
    if (this.running && this.pid > 0) {
      try {
        process.kill(-this.pid, signal);
      } catch {
        // The group is already gone.
      }
    }
    return this.exited;
  }

  private append(stream: 'stdout' | 'stderr', chunk: string): void {
    this[stream] += chunk;
    this.notify();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/**
 * The children a test file started. Each leads its own process group, so killing the group also
 * ends the playbook services it spawned; `killAll` is meant for afterEach.
 */
export class ProcessPool {
  private readonly children = new Set<ChildHandle>();

  /** Starts a child with piped stdio in a new process group. */
  spawn(spec: SpawnSpec, label = [spec.command, ...spec.args].join(' ')): ChildHandle {
    const child = spawn(spec.command, [...spec.args], { cwd: spec.cwd, env: spec.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const handle = new ChildHandle(child, label);
    this.children.add(handle);
    return handle;
  }

  /** SIGKILLs every child group still running and waits for them to end. */
  async killAll(): Promise<void> {
    const all = [...this.children];
    this.children.clear();
    await Promise.all(all.map((handle) => handle.kill('SIGKILL')));
  }
}

/**
 * SIGKILLs every process whose environment names this data folder: grandchildren that left their
 * group (a `script` session's command and its services) cannot outlive the test.
 */
export function killProcessesOfHome(home: string): number[] {
  if (!existsSync('/proc')) return [];
  const marker = `AGENT_DESK_HOME=${home}\0`;
  const killed: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      continue; // ended meanwhile, or not ours to read
    }
    if (!`\0${environ}`.includes(`\0${marker}`)) continue;
    try {
      process.kill(pid, 'SIGKILL');
      killed.push(pid);
    } catch {
      // Ended meanwhile.
    }
  }
  return killed;
}
