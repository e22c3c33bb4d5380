import { setImmediate as eventLoopTurn } from 'node:timers/promises';
import type { Clock } from '../clock.js';
import type { Repos } from '../store/store.js';

/** Lazy writes (a read-only step queues ~5) may share a commit: at most this many writes, this old. */
export const WRITE_BATCH = 128;
const WRITE_BATCH_MS = 50;

/** One queued write: statements through the repositories of the commit's transaction. */
export type Write = (tx: Repos) => Promise<unknown>;

/**
 * A run's database writes, in order. Everything queued lands in one transaction on flush; a
 * lazy write (a completed read-only step, planner state, throttled usage) waits for a later
 * write to carry it, at most WRITE_BATCH_MS (a timer commits it otherwise). Commits run one
 * after another: a flush while one commits queues behind it.
 */
export class CommitQueue {
  private pending: Write[] = [];
  private pendingSince = 0;
  /** Settles when the last commit started has ended. */
  private committing: Promise<void> = Promise.resolve();
  /** Commits lazy writes within WRITE_BATCH_MS even when no later write comes to carry them. */
  private flushTimer: NodeJS.Timeout | undefined;
  /** A timer's commit that failed: the next write reports it (a timer has no caller to throw to). */
  private flushError: unknown;
  /** Commits started and not yet ended. */
  private inFlight = 0;

  constructor(
    private readonly clock: Clock,
    private readonly transaction: (fn: (tx: Repos) => Promise<void>) => Promise<void>,
  ) {}

  /** Queues a write; resolves once it is committed (a lazy write: once queued). */
  write(fn: Write, lazy = false): Promise<void> {
    try {
      this.queue(fn);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.settle(lazy);
  }

  /** Queues a write and commits as `write` does, without a caller to wait: a failure is reported by the next write. */
  writeDetached(fn: Write, lazy = false): void {
    this.queue(fn);
    this.settle(lazy).catch((error: unknown) => (this.flushError ??= error));
  }

  /** Queues a write without committing: what is queued next lands in the same commit (a step row, then its events). */
  queue(fn: Write): void {
    this.rethrowTimerFailure();
    if (this.pending.length === 0) this.pendingSince = this.clock.now();
    this.pending.push(fn);
  }

  /**
   * Commits what is queued now, unless `lazy` and the batch may still wait for a later write to
   * carry it. A full lazy batch commits without holding its caller: the caller waits only for the
   * batch before it (at most one commit in flight behind the run; a failure is reported by the next write).
   */
  settle(lazy: boolean): Promise<void> {
    if (!lazy) return this.flush();
    if (this.pending.length >= WRITE_BATCH || this.clock.now() - this.pendingSince >= WRITE_BATCH_MS) {
      const before = this.committing;
      this.flush().catch((error: unknown) => (this.flushError ??= error));
      return before;
    }
    this.flushTimer ??= this.armFlushTimer();
    // A commit on its way needs turns of the event loop (its connection's callbacks, the server's
    // answer). A run whose steps never wait for I/O (instant tools, an in-process model) would
    // hold them back until the next full batch stops the run to wait for that commit.
    return this.inFlight > 0 ? eventLoopTurn() : Promise.resolve();
  }

  /** Commits everything queued; resolves when it (and every commit before it) has landed. */
  flush(): Promise<void> {
    if (this.flushTimer !== undefined) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
    }
    if (this.pending.length === 0) return this.committing;
    const batch = this.pending;
    this.pending = [];
    const commit = this.committing.then(() =>
      this.transaction(async (tx) => {
        for (const write of batch) await write(tx);
      }),
    );
    this.inFlight++;
    this.committing = commit.catch(() => undefined).then(() => void this.inFlight--);
    return commit;
  }

  private armFlushTimer(): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flush().catch((error: unknown) => (this.flushError ??= error));
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
