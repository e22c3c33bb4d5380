import { randomBytes } from 'node:crypto';
import os from 'node:os';
import Docker from 'dockerode';
import { DesktopSandbox } from './desktopSandbox.js';
import { DEFAULT_LIMITS, LABELS, hardenedCreateOptions, type SandboxLimits } from './hardening.js';
import { SandboxdSession } from './sandboxdSession.js';

/** A sandbox as listed by `sandboxes.list`. */
export interface SandboxInfo {
  id: string;
  name: string;
  state: string;
  owner: string;
  pid: number;
  task?: string;
  createdAt: string;
}

/** Options of one driver (one per runtime process). */
export interface SandboxDriverOptions {
  /** The desktop image reference (content-hash tag from `agent-desk sandbox build`). */
  image: string;
  /** Identifies this runtime's data folder: orphans are reaped per owner. */
  owner: string;
  limits?: Partial<SandboxLimits>;
  /** Defaults to dockerode's own (DOCKER_HOST, else the local socket). */
  docker?: Docker;
}

/**
 * Creates hardened disposable desktops with dockerode and talks to them over `docker exec`
 * stdio. Every container is labelled with its owner and this process's pid, so a later process
 * can reap what a killed one left behind.
 */
export class SandboxDriver {
  readonly docker: Docker;
  private readonly live = new Set<DesktopSandbox>();
  private readonly limits: SandboxLimits;

  constructor(private readonly opts: SandboxDriverOptions) {
    this.docker = opts.docker ?? new Docker();
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
  }

  /** Creates, starts and connects a sandbox, ready for its first screenshot. */
  async create(extra: { task?: string; limits?: Partial<SandboxLimits> } = {}): Promise<DesktopSandbox> {
    const limits = { ...this.limits, ...extra.limits };
    const name = `agent-desk-sbx-${randomBytes(5).toString('hex')}`;
    const labels: Record<string, string> = {
      [LABELS.owner]: this.opts.owner,
      [LABELS.pid]: String(process.pid),
      [LABELS.host]: os.hostname(),
      ...(extra.task ? { [LABELS.task]: extra.task } : {}),
    };
    const container = await this.docker.createContainer(hardenedCreateOptions(this.opts.image, limits, labels, name));
    try {
      await container.start();
      const session = await SandboxdSession.open(this.docker, container);
      const sandbox = new DesktopSandbox(container.id, name, limits.screen, container, session, (s) => this.live.delete(s));
      this.live.add(sandbox);
      await sandbox.waitReady();
      return sandbox;
    } catch (error) {
      await container.remove({ force: true }).catch(() => undefined);
      throw error;
    }
  }

  /** This owner's sandboxes on the engine (any process). */
  async list(): Promise<SandboxInfo[]> {
    const containers = await this.docker.listContainers({
      all: true,
      filters: { label: [`${LABELS.sandbox}=1`, `${LABELS.owner}=${this.opts.owner}`] },
    });
    return containers.map((c) => ({
      id: c.Id,
      name: (c.Names[0] ?? '').replace(/^\//, ''),
      state: c.State,
      owner: c.Labels[LABELS.owner] ?? '',
      pid: Number(c.Labels[LABELS.pid] ?? 0),
      ...(c.Labels[LABELS.task] ? { task: c.Labels[LABELS.task] } : {}),
      createdAt: new Date(c.Created * 1000).toISOString(),
    }));
  }

  /** Removes one sandbox by id or name (live or not). */
  async destroy(idOrName: string): Promise<void> {
    const live = [...this.live].find((s) => s.id === idOrName || s.name === idOrName);
    if (live) return live.destroy();
    await this.docker.getContainer(idOrName).remove({ force: true, v: true });
  }

  /**
   * Removes this owner's containers whose creating process is gone (killed runtimes leave them);
   * containers of another host's runtime are left alone. Returns the names removed.
   */
  async reapOrphans(): Promise<string[]> {
    const reaped: string[] = [];
    for (const c of await this.docker.listContainers({
      all: true,
      filters: { label: [`${LABELS.sandbox}=1`, `${LABELS.owner}=${this.opts.owner}`] },
    })) {
      const pid = Number(c.Labels[LABELS.pid] ?? 0);
      if (c.Labels[LABELS.host] !== os.hostname()) continue; // its owner's pid means nothing here
      if (pid === process.pid || processAlive(pid)) continue;
      await this.docker
        .getContainer(c.Id)
        .remove({ force: true, v: true })
        .catch(() => undefined);
      reaped.push((c.Names[0] ?? c.Id).replace(/^\//, ''));
    }
    return reaped;
  }

  /** Destroys every sandbox this driver created. */
  async close(): Promise<void> {
    await Promise.all([...this.live].map((s) => s.destroy().catch(() => undefined)));
  }
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
