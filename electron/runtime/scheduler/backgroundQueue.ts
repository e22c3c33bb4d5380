import { isoAt, type Clock } from '../clock.js';
import type { TaskEngine } from '../engine/taskEngine.js';
import { isTerminal } from '../engine/stateMachine.js';
import { AgentDeskError } from '../errors.js';
import type { QueueEntry, TaskQueueRepo } from '../store/taskQueueRepo.js';

/** How many queued tasks may run at once. */
export interface QueueLimits {
  /** Across all agents, in this process. */
  concurrency: number;
  /** Per agent (undefined: only the global limit applies). */
  perAgent(agentId: string): number | undefined;
}

/** What the queue needs from the runtime. */
export interface QueueDeps {
  engine: TaskEngine;
  repo: TaskQueueRepo;
  clock: Clock;
  pid: number;
  isAlive(pid: number): boolean;
  limits: QueueLimits;
  /** Reports a run that ended with an unexpected error (the entry is still finished). */
  onError?(taskId: string, error: unknown): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs queued tasks in the background, oldest first, within the global and per-agent limits.
 * Entries are claimed in SQLite with this process as owner, so a crash leaves them `running`
 * with a dead owner; `start()` hands those back, and re-running a task resumes it from its
 * recorded steps (a finished task is never run again).
 */
export class BackgroundQueue {
  private readonly inFlight = new Map<number, Promise<void>>();
  private started = false;
  private stopping = false;

  constructor(private readonly deps: QueueDeps) {}

  /** Takes back entries orphaned by a dead worker and starts working. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    this.deps.repo.releaseOrphans(this.deps.pid, this.deps.isAlive);
    this.pump();
  }

  /** Takes back the entries of workers that died since, while running (not this process's own). */
  takeOverDead(): number {
    if (!this.started || this.stopping) return 0;
    const released = this.deps.repo.releaseOrphans(this.deps.pid, this.deps.isAlive, false);
    if (released > 0) this.pump();
    return released;
  }

  /** Adds a task; it starts as soon as a slot is free (when the queue is started). */
  enqueue(taskId: string, opts: { agentId?: string; serialKey?: string } = {}): void {
    this.add(taskId, opts);
    this.pump();
  }

  /**
   * Records a task without starting anything: for callers inside a transaction, which must
   * `pump()` after it commits (a run started mid-transaction would write into it).
   */
  add(taskId: string, opts: { agentId?: string; serialKey?: string } = {}): void {
    // Without agentId the task's own agent is recorded, so its limit applies all the same.
    this.deps.repo.enqueue(taskId, opts, isoAt(this.deps.clock.now()));
  }

  /**
   * Runs a queued task again after a person answered what it waited for (an approval decided
   * in any client): its entry finished when the run detached, so nothing else would resume it.
   * Only tasks this queue ran, still waiting, and not run by anyone now.
   */
  wake(taskId: string): boolean {
    if (this.deps.engine.isRunningHere(taskId)) return false;
    const entry = this.deps.repo.get(taskId);
    if (entry?.state !== 'done') return false;
    if (this.deps.engine.get(taskId).state !== 'waiting_approval') return false;
    if (!this.deps.repo.requeue(taskId)) return false;
    this.pump();
    return true;
  }

  /** Whether the task has an entry that is not finished (pending, or running in some process). */
  has(taskId: string): boolean {
    const entry = this.deps.repo.get(taskId);
    return entry !== undefined && entry.state !== 'done';
  }

  /** Fills free slots with ready entries. Synchronous, so two pumps never interleave. */
  pump(): void {
    if (!this.started || this.stopping) return;
    const free = this.deps.limits.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const runningByAgent = this.deps.repo.runningByAgent();
    let launched = 0;
    for (const entry of this.deps.repo.ready(free + 64)) {
      if (launched >= free) break;
      if (entry.agentId !== undefined) {
        const limit = this.deps.limits.perAgent(entry.agentId);
        const running = runningByAgent.get(entry.agentId) ?? 0;
        if (limit !== undefined && running >= limit) continue;
        runningByAgent.set(entry.agentId, running + 1);
      }
      if (!this.deps.repo.claim(entry.seq, this.deps.pid, isoAt(this.deps.clock.now()))) continue;
      launched++;
      this.launch(entry);
    }
  }

  /** How many entries are pending, running (in any process) and done. */
  counts(): { pending: number; running: number; done: number } {
    return this.deps.repo.counts();
  }

  /** Entries running in this process. */
  get active(): number {
    return this.inFlight.size;
  }

  /** Resolves when nothing is running here and nothing is ready to start. */
  async drain(): Promise<void> {
    for (;;) {
      this.pump();
      if (this.inFlight.size === 0 && this.deps.repo.ready(1).length === 0) return;
      await Promise.race([...this.inFlight.values(), sleep(20)]);
    }
  }

  /** Stops starting entries and waits for the running ones to end or wait. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.started = false;
    await Promise.all(this.inFlight.values());
  }

  private launch(entry: QueueEntry): void {
    const done = this.runToRest(entry.taskId)
      .catch((error: unknown) => {
        this.deps.onError?.(entry.taskId, error);
        return `error: ${(error as Error)?.message ?? String(error)}`;
      })
      .then((outcome) => {
        this.deps.repo.finish(entry.seq, outcome, isoAt(this.deps.clock.now()));
      })
      .finally(() => {
        this.inFlight.delete(entry.seq);
        this.pump();
      });
    this.inFlight.set(entry.seq, done);
  }

  /** Runs the task until it ends or waits for a person; the outcome is the state it rests in. */
  private async runToRest(taskId: string): Promise<string> {
    try {
      const task = await this.deps.engine.run(taskId, { detachOnApproval: true });
      return task.state;
    } catch (error) {
      // Start-up recovery may already be driving this task here: wait for that run instead.
      if (!(error instanceof AgentDeskError && error.code === 'conflict') || !this.deps.engine.isRunningHere(taskId)) throw error;
      while (this.deps.engine.isRunningHere(taskId)) await sleep(20);
      const task = this.deps.engine.get(taskId);
      return isTerminal(task.state) ? task.state : `${task.state} (run by recovery)`;
    }
  }
}
