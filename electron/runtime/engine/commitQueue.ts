import type { Clock } from '../clock.js';

/** Completed read-only steps may share a commit: at most this many, this old. */
const WRITE_BATCH = 64;
const WRITE_BATCH_MS = 50;

/**
 * A run's database writes, in order. Everything queued lands in one transaction on flush; a
 * lazy write (a completed read-only step, planner state, throttled usage) waits for a later
 * write to carry it, at most WRITE_BATCH_MS (a timer commits it otherwise).
 */
export class CommitQueue {
  private pending: (() => void)[] = [];
  private pendingSince = 0;
  private flushing = false;
  /** Commits lazy writes within WRITE_BATCH_MS even when no later write comes to carry them. */
  private flushTimer: NodeJS.Timeout | undefined;
  /** A timer's commit that failed: the next write reports it (a timer has no caller to throw to). */
  private flushError: unknown;

  constructor(
    private readonly clock: Clock,
    private readonly transaction: (fn: () => void) => void,
  ) {}

  /** Queues a write; a write queued while the batch commits joins that transaction. */
  write(fn: () => void, lazy = false): void {
    if (this.flushing) return fn();
    this.rethrowTimerFailure();
    if (this.pending.length === 0) this.pendingSince = this.clock.now();
    this.pending.push(fn);
    const stale = this.clock.now() - this.pendingSince >= WRITE_BATCH_MS;
    if (!lazy || this.pending.length >= WRITE_BATCH || stale) this.flush();
    else this.flushTimer ??= this.armFlushTimer();
  }

  /** Commits everything queued, now. */
  flush(): void {
    if (this.flushTimer !== undefined) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
    }
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.flushing = true;
    try {
      this.transaction(() => {
        for (const write of batch) write();
      });
    } finally {
      this.flushing = false;
    }
  }

  private armFlushTimer(): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.flushTimer = undefined;
      try {
        this.flush();
      } catch (error) {
        this.flushError = error;
      }
    }, WRITE_BATCH_MS);
    timer.unref();
    return timer;
  }

  private rethrowTimerFailure(): void {
    if (this.flushError === undefined) return;
    const error = this.flushError;
    this.flushError = undefined;
    throw error;
  }
}
