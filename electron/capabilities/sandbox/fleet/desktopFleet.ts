import { AgentDeskError } from '../../../runtime/errors.js';
import { ToolError } from '../../../runtime/tools/types.js';
import type { DesktopSandbox } from '../desktopSandbox.js';
import type { SandboxLimits } from '../hardening.js';
import { SandboxDriver, type SandboxInfo, type SandboxWorker } from '../sandboxDriver.js';
import { oneSandboxMatch } from '../sandboxMatch.js';
import type { FleetEngine } from './engineClient.js';
import { HostSlot } from './hostSlot.js';
import { place } from './placement.js';

/** Pings in a row an engine may leave unanswered (late, not refused) before it counts as lost. */
const LATE_PINGS_LOST = 3;

/** How often every engine is pinged: a lost one marks its desktops lost, a returning one is cleaned and used again. */
const WATCH_MS = 1_000;
/** Placement tries this many engines for one desktop before the step is retried later. */
const PLACE_ATTEMPTS = 4;

/** What the fleet's desktops are made of, per engine. */
export interface FleetOptions {
  owner: string;
  worker?: SandboxWorker;
  poolSize: number;
  limits: Partial<SandboxLimits>;
}

/**
 * The engines of `sandbox.hosts` (or the one default engine), each with its driver, warm pool and
 * capacity. A task's desktop is placed where the engine answers, has the image and has room. The
 * engines are watched: one that is lost marks its desktops lost (their in-flight calls end as
 * effect-unknown, so the engine's exactly-once rules hold them) and its tasks get desktops
 * elsewhere; once it answers again what was left on it is removed.
 */
export class DesktopFleet {
  /** Lists, destroys and reaps without an image (one per engine). */
  private readonly controls: Map<string, SandboxDriver>;
  private slots: HostSlot[] = [];
  private waiters: (() => void)[] = [];
  private watch: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private closed = false;
  /** Pings each engine has left unanswered in a row. */
  private readonly late = new Map<string, number>();

  constructor(
    readonly engines: readonly FleetEngine[],
    private readonly opts: FleetOptions,
  ) {
    const worker = opts.worker && { worker: opts.worker };
    this.controls = new Map(
      engines.map((e) => [e.name, new SandboxDriver({ image: '', owner: opts.owner, docker: e.docker, host: e.name, ...worker })]),
    );
  }

  /** Starts the engines' drivers and warm pools with the image; `limitsFor` adds an engine's own (its egress). */
  async start(image: string, limitsFor: (engine: FleetEngine) => Promise<Partial<SandboxLimits>>): Promise<void> {
    const wake = () => this.wake();
    this.slots = await Promise.all(
      this.engines.map(
        async (e) =>
          new HostSlot(
            e,
            {
              image,
              owner: this.opts.owner,
              limits: { ...this.opts.limits, ...(await limitsFor(e)) },
              poolSize: this.opts.poolSize,
              ...(this.opts.worker && { worker: this.opts.worker }),
            },
            wake,
          ),
      ),
    );
    for (const slot of this.slots) if (await slot.hasImage()) slot.fill();
    if (this.engines.length > 1) this.watch = setInterval(() => void this.checkOnce(), WATCH_MS).unref();
  }

  /** The engine a desktop of this fleet runs on. */
  engine(name: string): FleetEngine {
    const engine = this.engines.find((e) => e.name === name);
    if (!engine)
      throw new AgentDeskError(
        'not_found',
        `no sandbox host "${name}" (sandbox.hosts names ${this.engines.map((e) => e.name).join(', ')})`,
      );
    return engine;
  }

  /** Waits until every warm pool is full (a bench, a test). */
  async whenWarm(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.whenWarm()));
  }

  /**
   * A desktop for a task: adopted where a dead process left it, else placed by room and image.
   * Waits while every usable engine is full; an engine that fails to start one is asked whether it
   * still answers and the next one is tried.
   */
  async acquire(taskId: string, signal?: AbortSignal): Promise<DesktopSandbox> {
    for (const slot of this.slots) {
      const adopted = slot.up ? await slot.adopt(taskId).catch(() => undefined) : undefined;
      if (adopted) return adopted;
    }
    let attempts = 0;
    let last = '';
    // Engines that answer but just failed a start (a 5xx, as while one shuts down): not this desktop's.
    const failed = new Set<string>();
    for (;;) {
      signal?.throwIfAborted();
      const views = await Promise.all(
        this.slots.map(async (s) => {
          const up = s.up && !failed.has(s.name);
          return { name: s.name, up, hasImage: up && (await s.hasImage()), room: s.room, warm: s.warm };
        }),
      );
      const placed = place(views);
      if (placed.kind === 'none') {
        if (failed.size > 0) throw new ToolError(`no sandbox host could start a desktop: ${last}`, true, 'desktop_unavailable');
        if (views.some((v) => v.up)) throw new AgentDeskError('unavailable', `no sandbox host can take a desktop: ${placed.reason}`);
        throw new ToolError(`no sandbox host can take a desktop: ${placed.reason}`, true, 'desktop_unavailable');
      }
      if (placed.kind === 'wait') {
        await this.roomOrAbort(signal);
        continue;
      }
      const slot = this.slots.find((s) => s.name === placed.name)!;
      // Another task may have taken the room while this one looked (the views were awaited): look again.
      if (slot.room <= 0) continue;
      try {
        return await slot.acquire(taskId);
      } catch (error) {
        last = (error as Error).message;
        if (await slot.ping()) {
          const failure = startFailure(slot.name, error);
          if (!(failure instanceof ToolError)) throw failure;
          last = failure.message;
          failed.add(slot.name);
        } else await slot.markDown();
        if (++attempts >= PLACE_ATTEMPTS)
          throw new ToolError(`no sandbox host could start a desktop: ${last}`, true, 'desktop_unavailable');
      }
    }
  }

  /** The task is done with its desktop (destroyed, or detached for the next process to adopt). */
  async release(sandbox: DesktopSandbox, keep = false): Promise<void> {
    const slot = this.slots.find((s) => s.name === sandbox.host);
    if (slot) return slot.release(sandbox, keep);
    return keep ? sandbox.detach() : sandbox.destroy();
  }

  /** Every engine's sandboxes of this owner, with their host; a lost engine's desktops as `lost`. */
  async list(): Promise<SandboxInfo[]> {
    const rows = await Promise.allSettled([...this.controls.values()].map((c) => c.list()));
    const failed = rows.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed && rows.every((r) => r.status === 'rejected')) throw failed.reason;
    const lost = this.slots.flatMap((s) => s.lostRows());
    const listed = rows.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
    return [...listed.filter((r) => !lost.some((l) => l.id === r.id)), ...lost];
  }

  /** Removes one sandbox by id, id prefix or name, on whichever engine has it. */
  async destroy(idOrName: string): Promise<void> {
    const controls = [...this.controls.values()];
    if (controls.length === 1) return controls[0]!.destroy(idOrName);
    const match = oneSandboxMatch(
      (await this.list()).filter((c) => c.state !== 'lost'),
      idOrName,
    );
    await this.controls.get(match.host ?? '')!.destroy(match.id);
  }

  /** Removes what killed runtimes of this owner left, on every engine that answers. */
  async reapOrphans(keep?: (task: string) => Promise<boolean>): Promise<string[]> {
    const reaped = await Promise.allSettled([...this.controls.values()].map((c) => c.reapOrphans(keep)));
    return reaped.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  }

  /**
   * One check at a time: on a loaded machine a check outlasts the interval, and two at once would
   * revive an engine twice (two removals of one container: the second is refused, 409).
   */
  private checkOnce(): Promise<void> {
    this.checking ??= this.check().finally(() => (this.checking = undefined));
    return this.checking;
  }

  /** Pings every engine: a lost one goes down (its desktops lost), a returning one is cleaned and used again. */
  private async check(): Promise<void> {
    for (const slot of this.slots) {
      if (this.closed) return;
      const answer = await slot.answer();
      // A refusal is an engine gone; silence is lost only when it lasts (a loaded machine's dockerd answers late now and then).
      const late = answer === 'late' ? (this.late.get(slot.name) ?? 0) + 1 : 0;
      this.late.set(slot.name, late);
      const lost = answer === 'down' || late >= LATE_PINGS_LOST;
      if (lost && slot.up) await slot.markDown();
      else if (answer === 'up' && !slot.up) await slot.revive().catch(() => undefined);
    }
  }

  private roomOrAbort(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        signal?.removeEventListener('abort', done);
        resolve();
      };
      signal?.addEventListener('abort', done, { once: true });
      this.waiters.push(done);
    });
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Stops watching, destroys the warm pools and every desktop the drivers made. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.watch) clearInterval(this.watch);
    // A check under way may be reviving an engine: its refill must see the slot closed, not start after it.
    await this.checking?.catch(() => undefined);
    await Promise.all(this.slots.map((s) => s.close().catch(() => undefined)));
    this.wake();
  }
}

/**
 * A desktop that did not start on an engine that answers: one that was slow to come up (a loaded
 * machine) or that the engine failed on its side (a 5xx, as while it shuts down) is retryable —
 * nothing ran in it yet; a refusal (an unknown runtime, bad options) is not.
 */
export function startFailure(host: string, error: unknown): unknown {
  const slow = error instanceof AgentDeskError && error.code === 'unavailable';
  const status = (error as { statusCode?: unknown } | undefined)?.statusCode;
  const engineSide = !(error instanceof AgentDeskError) && typeof status === 'number' && status >= 500;
  if (!slow && !engineSide) return error;
  return new ToolError(`no desktop could start on host ${host}: ${(error as Error).message}`, true, 'desktop_unavailable');
}
