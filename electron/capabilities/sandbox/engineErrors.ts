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
