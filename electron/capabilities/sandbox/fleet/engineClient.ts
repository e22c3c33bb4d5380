import type Docker from 'dockerode';
import { newDocker } from '../dockerClient.js';
import type { SandboxHost, SandboxRuntime } from '../../../contract/index.js';
import { AgentDeskError } from '../../../runtime/errors.js';
import type { SecretStore } from '../../../runtime/secrets/secretStore.js';

/** One engine of the fleet, ready to use: its client, capacity and runtime. */
export interface FleetEngine {
  name: string;
  /** Where it listens, as DOCKER_HOST names it (never carries TLS material). */
  address: string;
  docker: Docker;
  capacity: number;
  runtime: SandboxRuntime;
}

/** The name of the engine a config without `sandbox.hosts` uses. */
export const DEFAULT_HOST = 'local';

/**
 * A config entry that cannot be used as written: a TLS secret that is not in the secret store.
 * `invalid_request`, naming the host and the field, never the value.
 */
export class SandboxHostError extends AgentDeskError {
  constructor(host: string, field: string, message: string) {
    super('invalid_request', `sandbox.hosts "${host}": ${field}: ${message}`, { host, field });
    this.name = 'SandboxHostError';
  }
}

function secret(host: SandboxHost, field: 'caSecret' | 'certSecret' | 'keySecret', secrets: SecretStore | undefined): string {
  const name = host.tls![field];
  const value = secrets?.get(name);
  if (value === undefined)
    throw new SandboxHostError(host.name, `tls.${field}`, `no secret "${name}" in the secret store (agent-desk secrets set ${name})`);
  return value;
}

/** A dockerode client for one configured engine; TLS material is read from the secret store here only. */
export function engineFor(host: SandboxHost, fallback: SandboxRuntime, secrets?: SecretStore): FleetEngine {
  const common = { name: host.name, address: host.docker, capacity: host.capacity, runtime: host.runtime ?? fallback };
  if (host.docker.startsWith('unix://')) return { ...common, docker: newDocker({ socketPath: host.docker.slice('unix://'.length) }) };
  const url = new URL(host.docker.replace(/^tcp:/, 'http:'));
  const port = Number(url.port);
  if (!host.tls) return { ...common, docker: newDocker({ host: url.hostname, port, protocol: 'http' }) };
  const tls = { ca: secret(host, 'caSecret', secrets), cert: secret(host, 'certSecret', secrets), key: secret(host, 'keySecret', secrets) };
  return { ...common, docker: newDocker({ host: url.hostname, port, protocol: 'https', ...tls }) };
}

/**
 * The engines of a `sandbox` config section: its `hosts`, or — with none — the one default engine
 * (dockerode's: DOCKER_HOST, else the local socket) with no capacity limit, as before fleets.
 */
export function fleetEngines(
  sandbox: { hosts?: readonly SandboxHost[] | undefined; runtime: SandboxRuntime },
  secrets?: SecretStore,
): FleetEngine[] {
  if (!sandbox.hosts?.length) {
    const docker = newDocker();
    return [{ name: DEFAULT_HOST, address: defaultAddress(), docker, capacity: Number.POSITIVE_INFINITY, runtime: sandbox.runtime }];
  }
  return sandbox.hosts.map((h) => engineFor(h, sandbox.runtime, secrets));
}

const defaultAddress = (): string => process.env.DOCKER_HOST ?? 'unix:///var/run/docker.sock';
