import type Docker from 'dockerode';
import type { SandboxdMethod, SandboxdParams, SandboxdResult } from '../../contract/index.js';
import { AgentDeskError } from '../../runtime/errors.js';
import { ToolError } from '../../runtime/tools/types.js';
import { SandboxdSession } from './sandboxdSession.js';

/**
 * The calls that act on the desktop (pointer and keyboard). Once one was sent, a desktop lost
 * afterwards may or may not show its effect; before it, the action did nothing.
 */
const INPUTS: ReadonlySet<SandboxdMethod> = new Set<SandboxdMethod>([
  'mouse.move',
  'mouse.click',
  'mouse.drag',
  'mouse.scroll',
  'keyboard.press',
  'keyboard.type',
]);

/** How long a fresh container may take until its display answers. */
const READY_TIMEOUT_MS = 20_000;

/** One running disposable desktop: its container and the sandboxd session into it. */
export class DesktopSandbox {
  private destroyed = false;
  /** True once its engine was lost (or the container stopped under it): it never answers again. */
  lost = false;
  /** The engine of the fleet it runs on. */
  host = 'local';
  /** Device pixels per point (`sandbox.screen.scale`); `screen` is in device pixels. */
  scale = 1;
  /** Asked when the session ends under a call: true when the desktop is lost (not removed on purpose). */
  probeLost: (() => Promise<boolean>) | undefined;
  /** Pointer and keyboard calls sent to it: a caller tells a loss before its input from one after. */
  inputsSent = 0;

  constructor(
    readonly id: string,
    /** Changes once, when a warm sandbox is assigned to a task. */
    public name: string,
    readonly screen: { width: number; height: number },
    private readonly container: Docker.Container,
    private session: SandboxdSession,
    private readonly onDestroy: (sandbox: DesktopSandbox) => void,
  ) {}

  /** Calls sandboxd. */
  async call<M extends SandboxdMethod>(method: M, params: SandboxdParams<M>, timeoutMs?: number): Promise<SandboxdResult<M>> {
    if (this.lost) throw this.lostError(method, false);
    if (this.destroyed) throw new AgentDeskError('conflict', `sandbox ${this.name} was destroyed`);
    const sent = this.session.open;
    if (sent && INPUTS.has(method)) this.inputsSent++;
    try {
      return await this.session.call(method, params, timeoutMs);
    } catch (error) {
      if (this.destroyed || this.session.open || !(await this.isLost())) throw error;
      throw this.lostError(method, sent);
    }
  }

  /** Marks it lost (its engine went away): calls fail as lost, and the task's next step gets another desktop. */
  markLost(): void {
    if (this.lost) return;
    this.lost = true;
    this.detach();
  }

  private async isLost(): Promise<boolean> {
    if (!this.lost && (await this.probeLost?.().catch(() => true))) this.markLost();
    return this.lost;
  }

  /**
   * A desktop lost under a call: retryable on another desktop, and — when the call was sent — its
   * effect unknown, so the engine holds a side effect as uncertain instead of sending it again.
   */
  private lostError(method: string, sent: boolean): ToolError {
    const during = sent ? ` during ${method} (it may or may not have happened)` : '';
    return new ToolError(`desktop ${this.name} on host ${this.host} was lost${during}`, true, 'desktop_lost', sent);
  }

  /** Waits until sandboxd reports the display ready (polling health; X starts in parallel). */
  async waitReady(timeoutMs = READY_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      try {
        if ((await this.session.call('health', {}, 5_000)).ok) return;
        last = 'display not ready';
      } catch (error) {
        last = (error as Error).message;
        if (!this.session.open) break;
      }
      await new Promise((r) => setTimeout(r, 15));
    }
    throw new AgentDeskError('unavailable', `sandbox ${this.name} did not become ready: ${last}`);
  }

  /** Stops and removes the container (idempotent). */
  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    this.session.close();
    this.onDestroy(this);
    await this.container.remove({ force: true, v: true }).catch((error: { statusCode?: number }) => {
      if (error.statusCode !== 404) throw error;
    });
  }

  /**
   * Lets go of the container without removing it (a task waiting for a person keeps its desktop);
   * the next process adopts it. This object is unusable afterwards.
   */
  detach(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.session.close();
    this.onDestroy(this);
  }

  /** True until destroyed here, or until its sandboxd session ends (the container went away). */
  get alive(): boolean {
    return !this.destroyed && this.session.open;
  }
}
