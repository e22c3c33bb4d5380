import { AgentDeskError } from '../../runtime/errors.js';
import type { SandboxLimits } from '../sandbox/hardening.js';
import { compileWriteOrigins } from '../../runtime/policy/effects/writeOrigins.js';
import { containerAddress, EGRESS_NETWORK, ensureEgressNetwork } from '../sandbox/egressNetwork.js';
import { EgressProxy } from '../sandbox/egressProxy.js';
import { EgressSources } from '../sandbox/egressSources.js';
import type { DesktopSandbox } from '../sandbox/desktopSandbox.js';
import { SandboxDriver, type SandboxWorker } from '../sandbox/sandboxDriver.js';
import { WarmPool } from '../sandbox/warmPool.js';
import { DesktopSession } from './desktopSession.js';

/** How a runtime gets its desktops. */
export interface TaskDesktopsOptions {
  /** Resolves the image (reusing the content-hash tag; building it only when absent). */
  image: () => Promise<string>;
  owner: string;
  /** This process's runner lease: containers carry its worker id; another live worker's are left alone. */
  worker?: SandboxWorker;
  /** Ready containers kept warm (0 = create on demand). */
  poolSize?: number;
  limits?: Partial<SandboxLimits>;
  /** Hosts sandboxes may reach through the allowlisting proxy; empty keeps network `none`. */
  egressAllow?: readonly string[];
  /** Origins whose state-changing requests the egress gate lets pass (`policy.allowWrites`). */
  allowWrites?: readonly string[];
  /** Told when a task's desktop is ready and when it goes (the live view follows these). */
  onReady?: (session: DesktopSession) => void;
  onRelease?: (session: DesktopSession) => void;
}

/**
 * One disposable desktop per task (keyed by the task's workspace, which the synchronous policy
 * classification also knows), created on first use and destroyed when the task ends.
 */
export class TaskDesktops {
  private driverPromise: Promise<SandboxDriver> | undefined;
  private pool: WarmPool | undefined;
  private readonly sessions = new Map<string, Promise<DesktopSession>>();
  private readonly ready = new Map<string, DesktopSession>();
  private proxy: EgressProxy | undefined;
  /** Each desktop's address on the egress network, by workspace: how the proxy attributes requests. */
  private readonly addresses = new Map<string, string>();

  /** Lists, destroys and reaps without resolving (or building) the image. */
  readonly control: SandboxDriver;

  constructor(private readonly opts: TaskDesktopsOptions) {
    this.control = new SandboxDriver({ image: '', owner: opts.owner, ...(opts.worker && { worker: opts.worker }) });
  }

  /** The driver (the image is resolved on first use). */
  driver(): Promise<SandboxDriver> {
    this.driverPromise ??= this.opts.image().then(async (image) => {
      const limits = { ...this.opts.limits, ...(await this.egress()) };
      const driver = new SandboxDriver({ image, owner: this.opts.owner, limits, ...(this.opts.worker && { worker: this.opts.worker }) });
      if ((this.opts.poolSize ?? 0) > 0) {
        this.pool = new WarmPool(driver, this.opts.poolSize!);
        this.pool.fill();
      }
      return driver;
    });
    return this.driverPromise;
  }

  // With an allowlist: the internal egress network, and the proxy on its gateway as the only way out.
  private async egress(): Promise<Partial<SandboxLimits>> {
    if (!this.opts.egressAllow?.length) return {};
    const gateway = await ensureEgressNetwork(this.control.docker);
    this.proxy = new EgressProxy(this.opts.egressAllow, new EgressSources(compileWriteOrigins(this.opts.allowWrites ?? [])));
    const port = await this.proxy.start(gateway);
    return { network: EGRESS_NETWORK, proxy: `http://${gateway}:${port}` };
  }

  /** The task's desktop, acquiring one (warm if possible) on first use. */
  forWorkspace(workspace: string, taskId: string): Promise<DesktopSession> {
    let session = this.sessions.get(workspace);
    if (!session) {
      session = this.driver()
        .then((driver) => this.acquire(driver, taskId))
        .then(async (sandbox) => {
          const s = new DesktopSession(taskId, sandbox);
          await this.attribute(workspace, s).catch(async (error: unknown) => {
            await sandbox.destroy().catch(() => undefined);
            throw error;
          });
          this.ready.set(workspace, s);
          this.opts.onReady?.(s);
          return s;
        });
      session.catch(() => this.sessions.delete(workspace));
      this.sessions.set(workspace, session);
    }
    return session;
  }

  /** Registers the desktop's egress address with the proxy, so its requests meet its task's effect gate. */
  private async attribute(workspace: string, session: DesktopSession): Promise<void> {
    if (!this.proxy) return;
    const address = await containerAddress(this.control.docker, session.sandbox.id);
    session.egress = this.proxy.sources.register(address, { taskId: session.taskId, humanAtControls: () => session.takenOver });
    this.addresses.set(workspace, address);
  }

  private forget(workspace: string): void {
    const address = this.addresses.get(workspace);
    this.addresses.delete(workspace);
    if (address) this.proxy?.sources.unregister(address);
  }

  /**
   * A resumed task gets back the desktop a killed runtime left running (adopted as it was);
   * otherwise a warm one, named after the task so a later process can adopt it; else a new one.
   */
  private async acquire(driver: SandboxDriver, taskId: string): Promise<DesktopSandbox> {
    const adopted = await driver.adopt(taskId);
    if (adopted) return adopted;
    if (!this.pool) return driver.create({ task: taskId });
    const sandbox = await this.pool.acquire();
    await driver.assign(sandbox, taskId).catch((error: Error) => process.emitWarning(`sandbox ${sandbox.name}: ${error.message}`));
    return sandbox;
  }

  /** The task's desktop if it already exists (synchronous, for classification). */
  peek(workspace: string): DesktopSession | undefined {
    return this.ready.get(workspace);
  }

  /** The desktop of a task id, if it has one. */
  byTask(taskId: string): DesktopSession | undefined {
    return [...this.ready.values()].find((s) => s.taskId === taskId);
  }

  /** Destroys the task's desktop (task end). */
  async release(workspace: string): Promise<void> {
    const session = this.sessions.get(workspace);
    this.sessions.delete(workspace);
    this.ready.delete(workspace);
    this.forget(workspace);
    const s = await session?.catch(() => undefined);
    if (s) this.opts.onRelease?.(s);
    await s?.sandbox.destroy();
  }

  /** Removes containers a killed runtime of this owner left behind, but those of tasks `keep` names. */
  async reapOrphans(keep?: (task: string) => Promise<boolean>): Promise<string[]> {
    return this.control.reapOrphans(keep);
  }

  /**
   * Destroys every desktop and the warm pool, but the desktops of tasks `keep` names: those stay
   * running for the next process to adopt (a task waiting for an approval, paused, …).
   */
  async close(keep: (taskId: string) => Promise<boolean> = async () => false): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((w) => this.closeOne(w, keep).catch(() => undefined)));
    await this.pool?.close();
    if (this.driverPromise) await (await this.driverPromise.catch(() => undefined))?.close();
    await this.proxy?.close();
  }

  private async closeOne(workspace: string, keep: (taskId: string) => Promise<boolean>): Promise<void> {
    const session = this.ready.get(workspace);
    if (!session || !(await keep(session.taskId))) return this.release(workspace);
    this.sessions.delete(workspace);
    this.ready.delete(workspace);
    this.forget(workspace);
    this.opts.onRelease?.(session);
    session.sandbox.detach();
  }

  /** Requires a live desktop for a task id (takeover, screen.latest). */
  require(taskId: string): DesktopSession {
    const s = this.byTask(taskId);
    if (!s) throw new AgentDeskError('not_found', `task ${taskId} has no desktop sandbox (it starts with the task's first GUI action)`);
    return s;
  }
}
