import type Docker from 'dockerode';
import type { SandboxdMethod, SandboxdParams, SandboxdResult } from '../../contract/index.js';
import { AgentDeskError } from '../../runtime/errors.js';
import { SandboxdSession } from './sandboxdSession.js';

/** How long a fresh container may take until its display answers. */
const READY_TIMEOUT_MS = 20_000;

/** One running disposable desktop: its container and the sandboxd session into it. */
export class DesktopSandbox {
  private destroyed = false;

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
  call<M extends SandboxdMethod>(method: M, params: SandboxdParams<M>, timeoutMs?: number): Promise<SandboxdResult<M>> {
    if (this.destroyed) return Promise.reject(new AgentDeskError('conflict', `sandbox ${this.name} was destroyed`));
    return this.session.call(method, params, timeoutMs);
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
