import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type Docker from 'dockerode';
import { newDocker } from './dockerClient.js';
import { oneSandboxMatch } from './sandboxMatch.js';
import { DesktopSandbox } from './desktopSandbox.js';
import { onEngine, runtimeRefusal } from './engineErrors.js';
import { DEFAULT_LIMITS, LABELS, hardenedCreateOptions, type SandboxLimits } from './hardening.js';
import { SandboxdSession } from './sandboxdSession.js';
import { devicePixels } from '../../runtime/gui/coordinates.js';

/** A sandbox as listed by `sandboxes.list`. */
export interface SandboxInfo {
  id: string;
  name: string;
  state: string;
  owner: string;
  pid: number;
  task?: string;
  createdAt: string;
  /** The fleet engine it runs on. */
  host?: string;
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
  /**
   * This process as a worker of the store (its runner lease): containers are labelled with it,
   * and another worker's are left alone while that worker is live — on any machine sharing the
   * engine. Without it, the creating pid on this host decides (as before worker leases).
   */
  worker?: SandboxWorker;
  /** The fleet engine's name (`sandbox.hosts`), shown in listings and errors. */
  host?: string;
  /** How long a new desktop may take to answer its health check (default 20 s). */
  readyTimeoutMs?: number;
}

/** What the driver asks of the runner lease. */
export interface SandboxWorker {
  /** The id now (after a lost lease, a new one). */
  id(): string;
  /** The id once the worker is registered in the store: the one a new container is labelled with. */
  joined(): Promise<string>;
  isLive(workerId: string): Promise<boolean>;
}

/**
 * Creates hardened disposable desktops with dockerode and talks to them over `docker exec`
 * stdio. Every container is labelled with its owner (the data folder, or the shared store), its
 * worker and this process's pid, so a later process can adopt or reap what a dead one left behind.
 */
export class SandboxDriver {
  readonly docker: Docker;
  private readonly live = new Set<DesktopSandbox>();
  private readonly limits: SandboxLimits;

  constructor(private readonly opts: SandboxDriverOptions) {
    this.docker = opts.docker ?? newDocker();
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
  }

  /** Creates, starts and connects a sandbox, ready for its first screenshot. */
  async create(extra: { task?: string; limits?: Partial<SandboxLimits> } = {}): Promise<DesktopSandbox> {
    const limits = { ...this.limits, ...extra.limits };
    const name = `agent-desk-sbx-${randomBytes(5).toString('hex')}`;
    const worker = await this.opts.worker?.joined();
    const labels: Record<string, string> = {
      [LABELS.owner]: this.opts.owner,
      [LABELS.pid]: String(process.pid),
      [LABELS.host]: os.hostname(),
      ...(worker !== undefined && { [LABELS.worker]: worker }),
      ...(extra.task ? { [LABELS.task]: extra.task } : {}),
    };
    const container = await this.docker
      .createContainer(hardenedCreateOptions(this.opts.image, limits, labels, name))
      .catch((error: unknown) => Promise.reject(runtimeRefusal(this.docker, limits.runtime, error)));
    let sandbox: DesktopSandbox | undefined;
    try {
      await container.start();
      const session = await SandboxdSession.open(this.docker, container);
      sandbox = new DesktopSandbox(container.id, name, devicePixels(limits.screen, limits.screen.scale), container, session, (s) =>
        this.live.delete(s),
      );
      sandbox.host = this.hostName;
      sandbox.scale = limits.screen.scale ?? 1;
      this.live.add(sandbox);
      await sandbox.waitReady(this.opts.readyTimeoutMs);
      return sandbox;
    } catch (error) {
      // No longer driven even when the engine cannot remove it now (it went away): removeUndriven finds it later.
      sandbox?.detach();
      await container.remove({ force: true }).catch(() => undefined);
      throw error;
    }
  }

  /** This owner's sandboxes on the engine (any process). */
  async list(): Promise<SandboxInfo[]> {
    const containers = await this.ownContainers();
    return containers.map((c) => {
      const task = taskOf(c);
      return {
        id: c.Id,
        name: nameOf(c),
        state: c.State,
        owner: c.Labels[LABELS.owner] ?? '',
        pid: Number(c.Labels[LABELS.pid] ?? 0),
        ...(task ? { task } : {}),
        createdAt: new Date(c.Created * 1000).toISOString(),
        host: this.hostName,
      };
    });
  }

  /**
   * Marks a warm sandbox as a task's (labels are fixed at creation, so the name carries it),
   * which lets a later process of this owner find and adopt it.
   */
  async assign(sandbox: DesktopSandbox, task: string): Promise<void> {
    const name = `${sandbox.name}${TASK_SEPARATOR}${task}`;
    await this.docker.getContainer(sandbox.id).rename({ name });
    sandbox.name = name;
  }

  /**
   * Reconnects to a task's running sandbox that a process now gone left behind (its desktop,
   * browser and files as they were), or undefined when there is none or it does not answer.
   */
  async adopt(task: string): Promise<DesktopSandbox | undefined> {
    let found: Docker.ContainerInfo | undefined;
    for (const c of await this.ownContainers()) {
      if (taskOf(c) !== task || c.State !== 'running' || [...this.live].some((s) => s.id === c.Id)) continue;
      if (await this.heldElsewhere(c)) continue;
      found = c;
      break;
    }
    if (!found) return undefined;
    const container = this.docker.getContainer(found.Id);
    let sandbox: DesktopSandbox | undefined;
    try {
      const session = await SandboxdSession.open(this.docker, container);
      const { screen } = this.limits;
      sandbox = new DesktopSandbox(found.Id, nameOf(found), devicePixels(screen, screen.scale), container, session, (s) =>
        this.live.delete(s),
      );
      sandbox.host = this.hostName;
      sandbox.scale = screen.scale ?? 1;
      this.live.add(sandbox);
      await sandbox.waitReady(5_000);
      return sandbox;
    } catch {
      await (sandbox ? sandbox.destroy() : container.remove({ force: true, v: true })).catch(() => undefined);
      return undefined;
    }
  }

  /**
   * Removes one of this owner's sandboxes by id, id prefix (as `docker ps` shortens it) or name;
   * other containers on the engine are never touched.
   */
  async destroy(idOrName: string): Promise<void> {
    const live = [...this.live].find((s) => s.id === idOrName || s.name === idOrName);
    if (live) return live.destroy();
    const match = oneSandboxMatch(await this.list(), idOrName);
    await onEngine(this.docker, () =>
      this.docker
        .getContainer(match.id)
        .remove({ force: true, v: true })
        .catch((error: { statusCode?: number }) => {
          if (error.statusCode !== 404) throw error;
        }),
    );
  }

  /**
   * Removes this owner's containers whose creating process is gone (killed runtimes leave them);
   * containers of another host's runtime are left alone. Returns the names removed.
   */
  async reapOrphans(keep: (task: string) => Promise<boolean> = async () => false): Promise<string[]> {
    const reaped: string[] = [];
    for (const c of await this.ownContainers()) {
      if (this.isOurs(c) || (await this.heldElsewhere(c))) continue; // ours, or a live owner's
      const task = taskOf(c);
      if (task && c.State === 'running' && (await keep(task))) continue; // its task may resume and adopt it
      await this.docker
        .getContainer(c.Id)
        .remove({ force: true, v: true })
        .catch(() => undefined);
      reaped.push(nameOf(c));
    }
    return reaped;
  }

  private ownContainers(): Promise<Docker.ContainerInfo[]> {
    const filters = { label: [`${LABELS.sandbox}=1`, `${LABELS.owner}=${this.opts.owner}`] };
    return onEngine(this.docker, () => this.docker.listContainers({ all: true, filters }));
  }

  /** Created by this process (this worker, or this pid where no worker is named). */
  private isOurs(c: Docker.ContainerInfo): boolean {
    const worker = c.Labels[LABELS.worker];
    if (worker !== undefined && this.opts.worker) return worker === this.opts.worker.id();
    return c.Labels[LABELS.pid] === String(process.pid);
  }

  /**
   * Its creator still drives it: a live worker of the store (on any machine), or — for a
   * container that names no worker — another host, or another live process here.
   */
  private async heldElsewhere(c: Docker.ContainerInfo): Promise<boolean> {
    const worker = c.Labels[LABELS.worker];
    if (worker !== undefined && this.opts.worker) return worker !== this.opts.worker.id() && (await this.opts.worker.isLive(worker));
    const pid = Number(c.Labels[LABELS.pid] ?? 0);
    return c.Labels[LABELS.host] !== os.hostname() || (pid !== process.pid && processAlive(pid));
  }

  /** The sandboxes this driver drives now. */
  get driving(): readonly DesktopSandbox[] {
    return [...this.live];
  }

  private get hostName(): string {
    return this.opts.host ?? 'local';
  }

  /** Removes containers by id whatever their state (a lost engine's, once it answers again); gone ones count as removed. */
  async removeIds(ids: readonly string[]): Promise<void> {
    for (const id of ids)
      await this.docker
        .getContainer(id)
        .remove({ force: true, v: true })
        .catch((error: { statusCode?: number }) => {
          if (error.statusCode !== 404) throw error;
        });
  }

  /**
   * Removes this process's containers it no longer drives (an engine that went away under a create
   * or a warm fill leaves some it never heard back about); other processes' are left alone.
   */
  async removeUndriven(): Promise<void> {
    const driven = new Set([...this.live].map((s) => s.id));
    const left = (await this.ownContainers()).filter((c) => this.isOurs(c) && !driven.has(c.Id));
    await this.removeIds(left.map((c) => c.Id));
  }

  /** Destroys every sandbox this driver created. */
  async close(): Promise<void> {
    await Promise.all([...this.live].map((s) => s.destroy().catch(() => undefined)));
  }
}

/** Between a sandbox's own name and the task it was assigned to from the warm pool. */
const TASK_SEPARATOR = '--';

const nameOf = (c: Docker.ContainerInfo): string => (c.Names[0] ?? c.Id).replace(/^\//, '');

/** The task of a container: its label (created for the task) or its name (assigned from the pool). */
function taskOf(c: Docker.ContainerInfo): string | undefined {
  const byName = nameOf(c).split(TASK_SEPARATOR)[1];
  return c.Labels[LABELS.task] ?? (byName || undefined);
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
