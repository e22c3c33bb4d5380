/**
 * The per-call timeout of an MCP request, kept by Agent Desk instead of the SDK so it can reset on
 * progress and stand still while the user answers a question the server asked (elicitation):
 * a person thinking is not a hung server. Its signal aborts on the caller's abort or on expiry.
 */
export class McpCallTimer {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private paused = 0;
  private expired = false;
  private readonly onOuterAbort: () => void;

  constructor(
    private readonly timeoutMs: number,
    private readonly outer: AbortSignal,
  ) {
    this.onOuterAbort = () => this.controller.abort(outer.reason);
    if (outer.aborted) this.controller.abort(outer.reason);
    else outer.addEventListener('abort', this.onOuterAbort, { once: true });
    this.arm();
  }

  /** Aborted when the caller aborts or the call runs out of time. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True when the call ran out of time (not cancelled by the caller). */
  get timedOut(): boolean {
    return this.expired;
  }

  /** The server showed it is alive (progress): the full timeout starts again. */
  touch(): void {
    if (this.paused === 0) this.arm();
  }

  /** Stops the clock (while the user answers); calls nest. */
  pause(): void {
    this.paused++;
    clearTimeout(this.timer);
  }

  /** Restarts the clock with the full timeout once nothing holds it. */
  resume(): void {
    this.paused = Math.max(0, this.paused - 1);
    if (this.paused === 0) this.arm();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.outer.removeEventListener('abort', this.onOuterAbort);
  }

  private arm(): void {
    clearTimeout(this.timer);
    if (this.controller.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(new Error(`no answer within ${this.timeoutMs} ms`));
    }, this.timeoutMs);
  }
}
