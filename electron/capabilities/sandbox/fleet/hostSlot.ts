import type { DesktopSandbox } from '../desktopSandbox.js';
import { onEngine } from '../engineErrors.js';
import type { SandboxLimits } from '../hardening.js';
import { SandboxDriver, type SandboxInfo, type SandboxWorker } from '../sandboxDriver.js';
import { WarmPool } from '../warmPool.js';
import type { FleetEngine } from './engineClient.js';
import { taskRoom, warmRoom } from './placement.js';

/** How long an engine may take to answer a ping before it counts as lost. */
const PING_TIMEOUT_MS = 3_000;
/** How often an engine without the image is asked again (`sandbox build --host` while running). */
const IMAGE_RECHECK_MS = 5_000;

/** What a host's desktops are made of. */
export interface SlotOptions {
  image: string;
  owner: string;
  worker?: SandboxWorker;
  limits: Partial<SandboxLimits>;
  poolSize: number;
}

/**
 * One engine of the fleet: its driver and warm pool, the desktops in use on it (counted against
 * its capacity), and whether it answers. A lost engine's desktops are marked lost and remembered,
 * so they are removed once the engine answers again.
 */
export class HostSlot {
  readonly driver: SandboxDriver;
  private pool: WarmPool | undefined;
  up = true;
  /** Closed slots make nothing more: a revive or a refill that lands after close() is a no-op. */
  private closed = false;
  private image: { present: boolean; at: number } | undefined;
  private readonly inUse = new Set<DesktopSandbox>();
  private pending = 0;
  private readonly lost = new Map<string, SandboxInfo>();

  constructor(
    readonly engine: FleetEngine,
    private readonly opts: SlotOptions,
    private readonly changed: () => void,
  ) {
    const limits = { ...opts.limits, runtime: engine.runtime };
    const worker = opts.worker && { worker: opts.worker };
    this.driver = new SandboxDriver({ image: opts.image, owner: opts.owner, limits, docker: engine.docker, host: engine.name, ...worker });
  }

  get name(): string {
    return this.engine.name;
  }

  /** Room for one more task desktop: capacity less those in use, being made, and warm ones still starting. */
  get room(): number {
    const warmStarting = this.pool ? this.pool.held - this.pool.available : 0;
    return taskRoom({ capacity: this.engine.capacity, inUse: this.inUse.size, pending: this.pending, warmStarting });
  }

  /** Warm sandboxes ready now. */
  get warm(): number {
    return this.pool?.available ?? 0;
  }

  /** Desktops in use, for listings. */
  get desktops(): number {
    return this.inUse.size;
  }

  /** Fills the warm pool within the capacity left. */
  fill(): void {
    if (this.closed || !this.up || this.opts.poolSize === 0) return;
    const room = () => warmRoom({ capacity: this.engine.capacity, inUse: this.inUse.size, pending: this.pending });
    // A warm desktop that finished starting frees the room it held: a task waiting for room looks again.
    this.pool ??= new WarmPool(this.driver, this.opts.poolSize, 1_000, room, this.changed);
    this.pool.fill();
  }

  /** Waits until the warm pool is full (or stopped filling). */
  async whenWarm(): Promise<void> {
    await this.pool?.whenFull();
  }

  /** True when the engine has the image (asked again now and then while it has not). */
  async hasImage(): Promise<boolean> {
    const now = Date.now();
    if (this.image && (this.image.present || now - this.image.at < IMAGE_RECHECK_MS)) return this.image.present;
    const present = await this.engine.docker
      .getImage(this.opts.image)
      .inspect()
      .then(
        () => true,
        () => false,
      );
    this.image = { present, at: now };
    return present;
  }

  /** The task's desktop a process now gone left running here, taken in use; undefined when there is none. */
  async adopt(taskId: string): Promise<DesktopSandbox | undefined> {
    const sandbox = await this.driver.adopt(taskId);
    if (sandbox) this.take(sandbox);
    return sandbox;
  }

  private take(sandbox: DesktopSandbox): DesktopSandbox {
    sandbox.probeLost = () => this.probe(sandbox);
    this.inUse.add(sandbox);
    return sandbox;
  }

  /** A desktop for a task on this engine: warm or new. Counted in use until released. */
  async acquire(taskId: string): Promise<DesktopSandbox> {
    this.pending++;
    try {
      let sandbox: DesktopSandbox | undefined;
      if (this.pool) {
        sandbox = await this.pool.acquire();
        await this.driver
          .assign(sandbox, taskId)
          .catch((error: Error) => process.emitWarning(`sandbox ${sandbox!.name}: ${error.message}`));
      }
      sandbox ??= await this.driver.create({ task: taskId });
      return this.take(sandbox);
    } finally {
      this.pending--;
    }
  }

  /** The task is done with it: destroyed (unless lost or kept), and the capacity is free again. */
  async release(sandbox: DesktopSandbox, keep = false): Promise<void> {
    this.inUse.delete(sandbox);
    this.changed();
    if (keep) return sandbox.detach();
    await sandbox.destroy().catch((error: unknown) => {
      if (this.up) throw error;
    });
    if (this.up) this.fill();
  }

  /** Whether the engine answers, in bounded time: `down` when it refuses (or its socket is gone), `late` when it says nothing in time. */
  async answer(): Promise<'up' | 'late' | 'down'> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), PING_TIMEOUT_MS)));
    const answered = this.engine.docker.ping().then(
      () => 'up' as const,
      () => 'down' as const,
    );
    try {
      return await Promise.race([answered, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Whether the engine answers in time. */
  async ping(): Promise<boolean> {
    return (await this.answer()) === 'up';
  }

  /**
   * A session ended under a call (a desktop destroyed on purpose is never asked): lost when its
   * engine does not answer, the container stopped, or the container runs on with its sandboxd
   * gone (the daemon died, or its exec stream broke: it answers nothing more, so it is removed).
   * A container removed on purpose is not lost.
   */
  private async probe(sandbox: DesktopSandbox): Promise<boolean> {
    const state = await onEngine(this.engine.docker, () => this.engine.docker.getContainer(sandbox.id).inspect()).then(
      (info) => (info.State.Running ? 'running' : 'stopped'),
      (error: { statusCode?: number }) => (error.statusCode === 404 ? 'removed' : 'unreachable'),
    );
    if (state === 'unreachable') await this.markDown();
    else if (state === 'stopped') this.remember(sandbox);
    else if (state === 'running') await this.driver.removeIds([sandbox.id]).catch(() => this.remember(sandbox));
    return state !== 'removed';
  }

  /** The engine is lost: its desktops are marked lost (their tasks go on elsewhere), its pool dropped. */
  async markDown(): Promise<void> {
    if (!this.up) return;
    this.up = false;
    for (const sandbox of this.inUse) {
      this.remember(sandbox);
      sandbox.markLost();
    }
    this.inUse.clear();
    const pool = this.pool;
    this.pool = undefined;
    for (const id of pool?.readyIds() ?? []) this.lost.set(id, this.row(id, 'warm'));
    this.changed();
    await pool?.close().catch(() => undefined);
  }

  /** The engine answers again: what was lost on it is removed, then it takes desktops again. */
  async revive(): Promise<void> {
    if (this.closed) return;
    await this.driver.removeIds([...this.lost.keys()]);
    await this.driver.removeUndriven();
    this.lost.clear();
    this.image = undefined;
    this.up = true;
    this.fill();
    this.changed();
  }

  /** Lost desktops not yet removed, as listings show them. */
  lostRows(): SandboxInfo[] {
    return [...this.lost.values()];
  }

  private remember(sandbox: DesktopSandbox): void {
    this.lost.set(sandbox.id, this.row(sandbox.id, sandbox.name));
  }

  private row(id: string, name: string): SandboxInfo {
    const task = name.split('--')[1];
    return {
      id,
      name,
      state: 'lost',
      owner: this.opts.owner,
      pid: process.pid,
      createdAt: new Date().toISOString(),
      host: this.name,
      ...(task && { task }),
    };
  }

  /** Destroys the warm pool and every desktop of this engine's driver. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.close();
    await this.driver.close();
  }
}
