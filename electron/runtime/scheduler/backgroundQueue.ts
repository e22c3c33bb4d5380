import { isoAt, type Clock } from '../clock.js';
import type { TaskEngine } from '../engine/taskEngine.js';
import type { RunnerLease } from '../engine/engineDeps.js';
import type { ReleaseWrites } from '../engine/runHold.js';
import { isTerminal } from '../engine/stateMachine.js';
import { AgentDeskError } from '../errors.js';
import { TaskQueueRepo, type QueueEntry } from '../store/taskQueueRepo.js';

/** How many queued tasks may run at once. */
export interface QueueLimits {
  /** Across all agents, in this process. */
  concurrency: number;
  /** Per agent (undefined: only the global limit applies). */
  perAgent(agentId: string): Promise<number | undefined>;
}

/** What the queue needs from the runtime. */
export interface QueueDeps {
  engine: TaskEngine;
  repo: TaskQueueRepo;
  clock: Clock;
  lease: RunnerLease;
  limits: QueueLimits;
  /** Reports a run that ended with an unexpected error (the entry is still finished). */
  onError?(taskId: string, error: unknown): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Entries read beyond the free slots in one page: a few claimed first by other workers are passed over. */
const READY_MARGIN = 4;
/** How far past the free slots a fill looks for entries it may start (agents at their limit are passed over). */
const READY_LOOK_AHEAD = 64;

/** A failure of the queue's own bookkeeping in the background (no caller to throw to): one line. */
const report = (error: unknown): void => {
  process.stderr.write(`agent-desk queue: ${(error as Error)?.message ?? String(error)}\n`);
};

/**
 * Runs queued tasks in the background, oldest first, within the global and per-agent limits.
 * Entries are claimed in the store with this worker as owner, so a crash leaves them `running`
 * with a dead owner; `start()` and `takeOverDead()` hand those back, and re-running a task resumes it from its
 * recorded steps (a finished task is never run again).
 */
export class BackgroundQueue {
  private readonly inFlight = new Map<number, Promise<void>>();
  private started = false;
  private stopping = false;
  /** The start-up hand-back of orphaned entries: every pump waits for it. */
  private released: Promise<void> = Promise.resolve();
  /** The pump in progress, if any; `pumpAgain` asks it for one more pass once it is done. */
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;

  constructor(private readonly deps: QueueDeps) {}

  /**
   * Takes back entries orphaned by a dead worker and starts working. Returns at once: the first
   * pump (and every later one, `drain()` included) waits for the hand-back.
   */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    this.released = this.releaseOrphans().then(() => undefined, report);
    this.kick();
  }

  /** Takes back the entries of workers that died since, while running (not this process's own). */
  async takeOverDead(): Promise<number> {
    if (!this.started || this.stopping) return 0;
    const released = await this.releaseOrphans();
    if (released > 0) await this.pump();
    return released;
  }

  private async releaseOrphans(): Promise<number> {
    const { lease, repo } = this.deps;
    await lease.reap();
    return repo.releaseOrphans(lease.id, lease.freshSince());
  }

  /** Adds a task; it starts as soon as a slot is free (when the queue is started). */
  async enqueue(taskId: string, opts: { agentId?: string; serialKey?: string } = {}): Promise<void> {
    await this.add(taskId, opts);
    await this.pump();
  }

  /**
   * Records a task without starting anything: for callers inside a transaction, which pass the
   * transaction's queue repository (`into`) and must `pump()` after it commits (a run started
   * mid-transaction would write into it).
   */
  async add(taskId: string, opts: { agentId?: string; serialKey?: string } = {}, into: TaskQueueRepo = this.deps.repo): Promise<void> {
    // Without agentId the task's own agent is recorded, so its limit applies all the same.
    await into.enqueue(taskId, opts, isoAt(this.deps.clock.now()));
  }

  /**
   * Runs a queued task again after a person answered what it waited for (an approval decided
   * in any client): its entry finished when the run detached, so nothing else would resume it.
   * Only tasks this queue ran, still waiting, and not run by anyone now.
   */
  async wake(taskId: string): Promise<boolean> {
    if (this.deps.engine.isRunningHere(taskId)) return false;
    const entry = await this.deps.repo.get(taskId);
    if (entry?.state !== 'done') return false;
    if ((await this.deps.engine.get(taskId)).state !== 'waiting_approval') return false;
    if (!(await this.deps.repo.requeue(taskId))) return false;
    await this.pump();
    return true;
  }

  /** Whether the task has an entry that is not finished (pending, or running in some process). */
  async has(taskId: string): Promise<boolean> {
    const entry = await this.deps.repo.get(taskId);
    return entry !== undefined && entry.state !== 'done';
  }

  /**
   * Fills free slots with ready entries. Pumps never interleave: a pump asked for while one runs
   * makes that one go round once more (and resolves with it), so no two claim past the limits.
   */
  pump(): Promise<void> {
    this.pumpAgain = true;
    this.pumping ??= this.pumpUntilSettled();
    return this.pumping;
  }

  /** How many entries are pending, running (in any process) and done. */
  counts(): Promise<{ pending: number; running: number; done: number }> {
    return this.deps.repo.counts();
  }

  /** Entries running in this process. */
  get active(): number {
    return this.inFlight.size;
  }

  /** Resolves when nothing is running here and nothing is ready to start. */
  async drain(): Promise<void> {
    for (;;) {
      await this.pump();
      if (this.inFlight.size === 0 && (await this.deps.repo.ready(1, this.deps.lease.plannerVersion)).length === 0) return;
      await Promise.race([...this.inFlight.values(), sleep(20)]);
    }
  }

  /** Stops starting entries and waits for the running ones to end or wait. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.started = false;
    await this.pumping?.catch(() => undefined); // a pump mid-way may still launch the entry it claimed
    await Promise.all(this.inFlight.values());
  }

  /**
   * Passes until no pump was asked for meanwhile. The last look at `pumpAgain` and the end of
   * `pumping` happen with no await between, so a pump asked for at the end is never lost (and
   * the first await comes before `pumping` is set, so the end cannot come first).
   */
  private async pumpUntilSettled(): Promise<void> {
    try {
      await this.released;
      while (this.pumpAgain) {
        this.pumpAgain = false;
        await this.fill();
      }
    } finally {
      this.pumping = undefined;
    }
  }

  /** A pump nobody awaits (start-up, a run that ended): its failure is reported, not thrown. */
  private kick(): void {
    this.pump().catch(report);
  }

  private async fill(): Promise<void> {
    // A worker that cannot renew its heartbeat takes nothing new: another may already hold what it would claim.
    if (!this.started || this.stopping || !this.deps.lease.healthy()) return;
    const free = this.deps.limits.concurrency - this.inFlight.size;
    if (free <= 0) return;
    // The counts skip agents that look full; the claim itself holds the limit across workers. They
    // are read only once an entry's agent has a limit: most queues have none, and on PostgreSQL
    // each read is a round trip per started task.
    let runningByAgent: Map<string | null, number> | undefined;
    const limits = new Map<string, number | undefined>();
    let launched = 0;
    for await (const entry of this.readyEntries(free)) {
      if (this.stopping) break;
      let limit: number | undefined;
      if (entry.agentId !== undefined) {
        if (!limits.has(entry.agentId)) limits.set(entry.agentId, await this.deps.limits.perAgent(entry.agentId));
        limit = limits.get(entry.agentId);
        if (limit !== undefined) {
          runningByAgent ??= await this.deps.repo.runningByAgent();
          const running = runningByAgent.get(entry.agentId) ?? 0;
          if (running >= limit) continue;
          runningByAgent.set(entry.agentId, running + 1);
        }
      }
      if (!(await this.claim(entry, limit))) continue;
      this.launch(entry);
      if (++launched >= free) break;
    }
  }

  /**
   * Ready entries, a page at a time: a page a little larger than the free slots is usually all a
   * fill needs (reading 64 more for every task started cost the server and the worker more than
   * the claim). Entries of agents at their limit, or claimed first by other workers, are passed
   * over for up to READY_LOOK_AHEAD entries beyond the slots.
   */
  private async *readyEntries(free: number): AsyncGenerator<QueueEntry> {
    const page = free + READY_MARGIN;
    let after = 0;
    for (let seen = 0; seen < free + READY_LOOK_AHEAD;) {
      const entries = await this.deps.repo.ready(page, this.deps.lease.plannerVersion, after);
      for (const entry of entries) yield entry;
      if (entries.length < page) return;
      seen += entries.length;
      after = entries.at(-1)!.seq;
    }
  }

  private claim(entry: QueueEntry, limit: number | undefined): Promise<boolean> {
    const { seq, agentId } = entry;
    const [owner, at] = [this.deps.lease.id, isoAt(this.deps.clock.now())];
    if (agentId === undefined || limit === undefined) return this.deps.repo.claim(seq, owner, at);
    return this.deps.repo.claimWithinLimit(seq, owner, at, agentId, limit);
  }

  private launch(entry: QueueEntry): void {
    const owner = this.deps.lease.id;
    let finished = false;
    // The entry is finished in the commit that gives the task's lease back (one round trip), by
    // this worker only: an entry handed back meanwhile (its lease was taken) is another's now.
    const finishWithRelease: ReleaseWrites = async (tx, task) => {
      await new TaskQueueRepo(tx.sql).finish(entry.seq, owner, task.state, isoAt(this.deps.clock.now()));
      tx.afterCommit(() => (finished = true));
    };
    const done = this.runToRest(entry.taskId, finishWithRelease)
      .catch((error: unknown) => {
        this.deps.onError?.(entry.taskId, error);
        return `error: ${(error as Error)?.message ?? String(error)}`;
      })
      .then((outcome) => (finished ? undefined : this.deps.repo.finish(entry.seq, owner, outcome, isoAt(this.deps.clock.now()))))
      .catch(report) // the entry stays running under this worker; once its lease ends another hands it back
      .finally(() => {
        this.inFlight.delete(entry.seq);
        this.kick();
      });
    this.inFlight.set(entry.seq, done);
  }

  /** Runs the task until it ends or waits for a person; the outcome is the state it rests in. */
  private async runToRest(taskId: string, releaseWith: ReleaseWrites): Promise<string> {
    try {
      const task = await this.deps.engine.run(taskId, { detachOnApproval: true, releaseWith });
      return task.state;
    } catch (error) {
      // Start-up recovery may already be driving this task here: wait for that run instead.
      if (!(error instanceof AgentDeskError && error.code === 'conflict') || !this.deps.engine.isRunningHere(taskId)) throw error;
      while (this.deps.engine.isRunningHere(taskId)) await sleep(20);
      const task = await this.deps.engine.get(taskId);
      return isTerminal(task.state) ? task.state : `${task.state} (run by recovery)`;
    }
  }
}
