import { AgentDeskError } from '../../runtime/errors.js';
import type { SandboxLimits } from '../sandbox/hardening.js';
import { compileWriteOrigins } from '../../runtime/policy/effects/writeOrigins.js';
import { containerAddress, EGRESS_NETWORK, ensureEgressNetwork } from '../sandbox/egressNetwork.js';
import { EgressProxy } from '../sandbox/egressProxy.js';
import { EgressSources } from '../sandbox/egressSources.js';
import type { DesktopSandbox } from '../sandbox/desktopSandbox.js';
import type { SandboxWorker } from '../sandbox/sandboxDriver.js';
import { DesktopFleet } from '../sandbox/fleet/desktopFleet.js';
import type { FleetEngine } from '../sandbox/fleet/engineClient.js';
import { DesktopSession } from './desktopSession.js';

/** How a runtime gets its desktops. */
export interface TaskDesktopsOptions {
  /** Resolves the image (reusing the content-hash tag; building it only when absent). */
  image: () => Promise<string>;
  owner: string;
  /** The engines desktops are placed on (`sandbox.hosts`, or the one default engine). */
  engines: readonly FleetEngine[];
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
  private started: Promise<DesktopFleet> | undefined;
  private readonly sessions = new Map<string, Promise<DesktopSession>>();
  private readonly ready = new Map<string, DesktopSession>();
  /** One egress proxy per engine whose desktops have an allowlist (the proxy listens on that engine's bridge). */
  private readonly proxies = new Map<string, EgressProxy>();
  /** Each desktop's address on the egress network, by workspace: how the proxy attributes requests. */
  private readonly addresses = new Map<string, { host: string; address: string }>();

  /** Lists, destroys and reaps without resolving (or building) the image; places desktops once started. */
  readonly control: DesktopFleet;

  constructor(private readonly opts: TaskDesktopsOptions) {
    this.control = new DesktopFleet(opts.engines, {
      owner: opts.owner,
      poolSize: opts.poolSize ?? 0,
      limits: { ...opts.limits },
      ...(opts.worker && { worker: opts.worker }),
    });
  }

  /** The fleet, started with the image (resolved on first use) and its warm pools filling. */
  driver(): Promise<DesktopFleet> {
    this.started ??= this.opts.image().then(async (image) => {
      await this.control.start(image, (engine) => this.egress(engine));
      return this.control;
    });
    return this.started;
  }

  // With an allowlist: the engine's internal egress network, and a proxy on its gateway as the only way out.
  private async egress(engine: FleetEngine): Promise<Partial<SandboxLimits>> {
    if (!this.opts.egressAllow?.length) return {};
    const gateway = await ensureEgressNetwork(engine.docker);
    const proxy = new EgressProxy(this.opts.egressAllow, new EgressSources(compileWriteOrigins(this.opts.allowWrites ?? [])));
    this.proxies.set(engine.name, proxy);
    const port = await proxy.start(gateway);
    return { network: EGRESS_NETWORK, proxy: `http://${gateway}:${port}` };
  }

  /** The task's desktop, acquiring one (warm if possible) on first use. */
  forWorkspace(workspace: string, taskId: string): Promise<DesktopSession> {
    // A desktop lost with its engine is let go: the task's next step gets one placed elsewhere.
    if (this.ready.get(workspace)?.sandbox.lost) this.dropLost(workspace);
    let session = this.sessions.get(workspace);
    if (!session) {
      session = this.driver()
        .then((fleet) => fleet.acquire(taskId))
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

  private dropLost(workspace: string): void {
    const lost = this.ready.get(workspace)!;
    this.sessions.delete(workspace);
    this.ready.delete(workspace);
    this.forget(workspace);
    this.opts.onRelease?.(lost);
    void this.control.release(lost.sandbox).catch(() => undefined);
  }

  /** Registers the desktop's egress address with the proxy, so its requests meet its task's effect gate. */
  private async attribute(workspace: string, session: DesktopSession): Promise<void> {
    const host = session.sandbox.host;
    const proxy = this.proxies.get(host);
    if (!proxy) return;
    const address = await containerAddress(this.control.engine(host).docker, session.sandbox.id);
    session.egress = proxy.sources.register(address, { taskId: session.taskId, humanAtControls: () => session.takenOver });
    this.addresses.set(workspace, { host, address });
  }

  private forget(workspace: string): void {
    const at = this.addresses.get(workspace);
    this.addresses.delete(workspace);
    if (at) this.proxies.get(at.host)?.sources.unregister(at.address);
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
    if (s) await this.control.release(s.sandbox);
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
    await this.control.close();
    await Promise.all([...this.proxies.values()].map((p) => p.close()));
  }

  private async closeOne(workspace: string, keep: (taskId: string) => Promise<boolean>): Promise<void> {
    const session = this.ready.get(workspace);
    if (!session || !(await keep(session.taskId))) return this.release(workspace);
    this.sessions.delete(workspace);
    this.ready.delete(workspace);
    this.forget(workspace);
    this.opts.onRelease?.(session);
    await this.control.release(session.sandbox, true);
  }

  /** Requires a live desktop for a task id (takeover, screen.latest). */
  require(taskId: string): DesktopSession {
    const s = this.byTask(taskId);
    if (!s) throw new AgentDeskError('not_found', `task ${taskId} has no desktop sandbox (it starts with the task's first GUI action)`);
    return s;
  }
}
