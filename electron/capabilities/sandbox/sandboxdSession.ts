import { PassThrough, type Duplex } from 'node:stream';
import { createInterface } from 'node:readline';
import type Docker from 'dockerode';
import {
  SandboxdMethods,
  SandboxdResponseSchema,
  type SandboxdMethod,
  type SandboxdParams,
  type SandboxdResult,
} from '../../contract/index.js';
import { AgentDeskError } from '../../runtime/errors.js';

/** Where the desktop's sandboxd listens (started with the container, modules preloaded). */
export const SANDBOXD_SOCKET = '/tmp/sandboxd.sock';
// socat bridges exec stdio to the socket: it starts in ms where a second node would take ~0.5 s.
const CONNECT = `while [ ! -S ${SANDBOXD_SOCKET} ]; do sleep 0.01; done; exec socat - UNIX-CONNECT:${SANDBOXD_SOCKET}`;

interface Pending {
  method: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * One JSON-RPC session with sandboxd over `docker exec` stdio: works with no container network
 * and with a remote DOCKER_HOST. Requests may overlap; answers match by id.
 */
export class SandboxdSession {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedReason: string | undefined;
  private stderrTail = '';

  private constructor(private readonly stream: Duplex) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    this.demux = { stdout, stderr };
    createInterface({ input: stdout, crlfDelay: Infinity }).on('line', (line) => this.onLine(line));
    stderr.on('data', (d: Buffer) => (this.stderrTail = (this.stderrTail + d.toString()).slice(-4_000)));
    stream.on('end', () => this.fail('sandboxd ended'));
    stream.on('close', () => this.fail('sandboxd closed'));
    stream.on('error', (error) => this.fail(`sandboxd stream error: ${error.message}`));
  }

  private readonly demux: { stdout: PassThrough; stderr: PassThrough };

  /** Connects to the container's sandboxd through `docker exec` stdio. */
  static async open(docker: Docker, container: Docker.Container): Promise<SandboxdSession> {
    const exec = await container.exec({
      Cmd: ['sh', '-c', CONNECT],
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
    });
    const stream = (await exec.start({ hijack: true, stdin: true })) as unknown as Duplex;
    const session = new SandboxdSession(stream);
    docker.modem.demuxStream(stream, session.demux.stdout, session.demux.stderr);
    return session;
  }

  /** Calls one method; the result is validated against the contract. */
  async call<M extends SandboxdMethod>(method: M, params: SandboxdParams<M>, timeoutMs = 30_000): Promise<SandboxdResult<M>> {
    if (this.closedReason) throw new AgentDeskError('unavailable', `${this.closedReason}${this.stderrNote()}`);
    const id = this.nextId++;
    const raw = await new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new AgentDeskError('unavailable', `sandboxd ${method} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      const done =
        <T>(f: (v: T) => void) =>
        (v: T) => {
          clearTimeout(timer);
          f(v);
        };
      this.pending.set(id, { method, resolve: done(resolve), reject: done(reject) });
      this.stream.write(JSON.stringify({ id, method, params }) + '\n');
    });
    return SandboxdMethods[method].result.parse(raw) as SandboxdResult<M>;
  }

  /** Ends sandboxd (closing its stdin); pending calls fail. */
  close(): void {
    this.stream.end();
    this.fail('sandboxd session closed');
  }

  /** True while the session can take calls. */
  get open(): boolean {
    return this.closedReason === undefined;
  }

  private onLine(line: string): void {
    let parsed;
    try {
      parsed = SandboxdResponseSchema.safeParse(JSON.parse(line));
    } catch {
      return; // sandboxd only writes protocol lines; ignore anything else rather than crash
    }
    if (!parsed.success) return;
    const pending = this.pending.get(parsed.data.id);
    if (!pending) return;
    this.pending.delete(parsed.data.id);
    if ('error' in parsed.data) {
      const { code, message } = parsed.data.error;
      const mapped =
        code === 'invalid_params' || code === 'outside_home'
          ? 'invalid_params'
          : code === 'method_not_found'
            ? 'method_not_found'
            : 'unavailable';
      pending.reject(new AgentDeskError(mapped, `sandboxd ${pending.method}: ${message}`, { sandboxdCode: code }));
    } else pending.resolve(parsed.data.result);
  }

  private fail(reason: string): void {
    if (this.closedReason) return;
    this.closedReason = reason;
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new AgentDeskError('unavailable', `${reason} during ${p.method}${this.stderrNote()}`));
    }
  }

  private stderrNote(): string {
    return this.stderrTail ? ` (sandboxd stderr: ${this.stderrTail.trim().slice(-500)})` : '';
  }
}
