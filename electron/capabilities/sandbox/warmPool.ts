import type { DesktopSandbox } from './desktopSandbox.js';
import type { SandboxDriver } from './sandboxDriver.js';

/**
 * Keeps `size` ready sandboxes (started, display up, sandboxd connected), so a task's first
 * screenshot costs one round trip. Each acquired sandbox is the task's alone; the pool refills.
 */
export class WarmPool {
  private readonly ready: DesktopSandbox[] = [];
  private filling = 0;
  private closed = false;
  private readonly waiters: (() => void)[] = [];

  constructor(
    private readonly driver: SandboxDriver,
    readonly size: number,
    private readonly refillDelayMs = 1_000,
    /** How many warm sandboxes the host has room for now (its capacity less the desktops in use). */
    private readonly room: () => number = () => Number.POSITIVE_INFINITY,
    /** Told when a sandbox being made is ready (or failed): what it held of the host's room is free for a task again. */
    private readonly settled: () => void = () => undefined,
  ) {}

  /** Starts creating sandboxes until `size` are ready or on their way. */
  fill(): void {
    while (!this.closed && this.ready.length + this.filling < Math.min(this.size, this.room())) {
      this.filling++;
      void this.driver
        .create()
        .then((s) => (this.closed ? s.destroy() : void this.ready.push(s)))
        .catch((error: Error) => process.emitWarning(`warm sandbox failed: ${error.message}`))
        .finally(() => {
          this.filling--;
          for (const wake of this.waiters.splice(0)) wake();
          this.settled();
        });
    }
  }

  /** Resolves when the pool holds `size` ready sandboxes (or nothing more is being created). */
  async whenFull(): Promise<void> {
    while (!this.closed && this.ready.length < this.size && this.filling > 0) await new Promise<void>((r) => this.waiters.push(r));
  }

  /** A ready sandbox if one is waiting (then refills), else a freshly created one. */
  async acquire(): Promise<DesktopSandbox> {
    let warm = this.ready.shift();
    // A ready sandbox removed from outside (`sandbox destroy`, a docker rm) is dropped, not handed out.
    while (warm && !warm.alive) {
      await warm.destroy().catch(() => undefined);
      warm = this.ready.shift();
    }
    if (!warm) return this.driver.create().finally(() => this.fill());
    // Refill a moment later: on two cores a starting container would slow the task's first steps.
    setTimeout(() => this.fill(), this.refillDelayMs).unref();
    return warm;
  }

  /** Ready sandboxes now. */
  get available(): number {
    return this.ready.length;
  }

  /** Ready and on their way: what the pool holds of its host's capacity. */
  get held(): number {
    return this.ready.length + this.filling;
  }

  /** The ready sandboxes' ids (a lost engine's are remembered for reaping when it answers again). */
  readyIds(): string[] {
    return this.ready.map((s) => s.id);
  }

  /** Destroys the idle sandboxes and stops refilling. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.ready.splice(0).map((s) => s.destroy().catch(() => undefined)));
    while (this.filling > 0) await new Promise<void>((r) => this.waiters.push(r));
  }
}
