import type Docker from 'dockerode';
import { AgentDeskError } from '../../runtime/errors.js';

/** What to check when the engine's socket or port does not answer, by the connection's error code. */
const UNREACHABLE: Record<string, string> = {
  ENOENT: 'no socket there: is Docker running, and DOCKER_HOST right?',
  ECONNREFUSED: 'nothing listens there: is Docker running, and DOCKER_HOST right?',
  EACCES: 'permission denied: may this user use Docker (the docker group)?',
  EPERM: 'permission denied: may this user use Docker (the docker group)?',
  ECONNRESET: 'the engine closed the connection',
  ETIMEDOUT: 'the engine did not answer in time',
  EHOSTUNREACH: 'the host cannot be reached',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name does not resolve',
};

/** The engine a dockerode client talks to, as DOCKER_HOST would name it. */
export function engineAddress(docker: Docker): string {
  const modem = (docker as unknown as { modem?: { socketPath?: unknown; host?: unknown; port?: unknown; protocol?: unknown } }).modem;
  if (typeof modem?.socketPath === 'string') return `unix://${modem.socketPath}`;
  if (typeof modem?.host === 'string') {
    const scheme = modem.protocol === 'https' ? 'https' : 'tcp';
    return `${scheme}://${modem.host}${modem.port !== undefined && modem.port !== '' ? `:${String(modem.port)}` : ''}`;
  }
  return 'the default Docker engine';
}

/**
 * Runs an engine call; a connection that fails (no socket, refused, not permitted) is `unavailable`
 * naming the engine, not a bare system error the gateway would call internal.
 */
export async function onEngine<T>(docker: Docker, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const code = (error as { code?: unknown } | undefined)?.code;
    const hint = typeof code === 'string' ? UNREACHABLE[code] : undefined;
    if (hint === undefined) throw error;
    const engine = engineAddress(docker);
    throw new AgentDeskError('unavailable', `the Docker engine at ${engine} cannot be reached (${code}): ${hint}`, {
      engine,
      cause: code,
    });
  }
}

/**
 * The engine does not know the OCI runtime a desktop asks for (`sandbox.runtime: "runsc"` on an
 * engine that never registered gVisor): `invalid_request`, naming the engine and what to add.
 */
export class SandboxRuntimeError extends AgentDeskError {
  constructor(engine: string, runtime: string) {
    super(
      'invalid_request',
      `the Docker engine at ${engine} has no runtime "${runtime}": register it in that engine's daemon.json ` +
        `("runtimes": {"${runtime}": {"path": "/usr/bin/${runtime}", "runtimeArgs": ["--network=none"]}}) and reload dockerd (SIGHUP), or run desktops under runc`,
      { engine, runtime },
    );
    this.name = 'SandboxRuntimeError';
  }
}

/** A container create the engine refused for an unknown runtime, as a SandboxRuntimeError; anything else unchanged. */
export function runtimeRefusal(docker: Docker, runtime: string | undefined, error: unknown): unknown {
  const message = (error as { message?: unknown } | undefined)?.message;
  if (runtime && typeof message === 'string' && /unknown or invalid runtime name/i.test(message))
    return new SandboxRuntimeError(engineAddress(docker), runtime);
  return error;
}
