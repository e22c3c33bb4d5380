import { ulid } from 'ulid';
import { CronJobSpecSchema, type CronJob, type CronJobSpec, type CronRun, type TaskState } from '../../contract/index.js';
import type { RuntimeCore } from '../core/runtimeCore.js';
import { isoAt, type Clock } from '../clock.js';
import { processIsAlive } from '../engine/engineDeps.js';
import { isTerminal } from '../engine/stateMachine.js';
import { AgentDeskError, describeIssues, issuesFromZod } from '../errors.js';
import { AgentRepo } from '../store/agentRepo.js';
import { CronRepo } from '../store/cronRepo.js';
import { TaskQueueRepo } from '../store/taskQueueRepo.js';
import { BackgroundQueue } from './backgroundQueue.js';
import { CronSchedule } from './cronSchedule.js';
import { agentOfJob, blockedReason, buildCronTarget } from './cronTarget.js';

/** A run record with the current state of its task. */
export type CronRunView = CronRun & { taskState?: TaskState };

/** Longest the background loop sleeps between looks at the clock (jobs added elsewhere are seen this soon). */
const MAX_IDLE_MS = 1000;
/** How often a running scheduler looks for work of processes that died (a killed worker's tasks). */
const TAKEOVER_EVERY_MS = 2000;

/**
 * Cron jobs and the background queue. `tick()` handles every due job at the clock's current
 * time: missed fire times by the job's missed-run policy, the on-time one by its overlap policy.
 * Jobs, runs and queue entries live in SQLite, so all of it carries over a restart.
 */
export class Scheduler {
  readonly jobs: CronRepo;
  readonly agents: AgentRepo;
  readonly queue: BackgroundQueue;
  private readonly clock: Clock;
  private loopAbort: AbortController | undefined;
  private loopDone: Promise<void> | undefined;
  private stopWaking: (() => void) | undefined;

  constructor(
    private readonly rt: RuntimeCore,
    overrides: { concurrency?: number } = {},
  ) {
    this.clock = rt.clock;
    this.jobs = new CronRepo(rt.store.db);
    this.agents = new AgentRepo(rt.store.db);
    const limits = { ...rt.config.startup.scheduler, ...overrides };
    this.queue = new BackgroundQueue({
      engine: rt.engine,
      repo: new TaskQueueRepo(rt.store.db),
      clock: this.clock,
      pid: rt.pid,
      isAlive: processIsAlive,
      limits: { concurrency: limits.concurrency, perAgent: (name) => this.agents.get(name)?.maxConcurrent },
    });
  }

  /** Validates and stores a job; its first fire time is the next one after now. */
  add(input: unknown): CronJob {
    const spec = parseSpec(input);
    this.validate(spec);
    const now = this.clock.now();
    const job: CronJob = { ...spec, id: `cron_${ulid()}`, status: 'active', createdAt: isoAt(now), updatedAt: isoAt(now) };
    const scheduled = this.withNextRun(job, now);
    this.jobs.save(scheduled);
    return scheduled;
  }

  list(): CronJob[] {
    return this.jobs.list();
  }

  get(jobId: string): CronJob {
    const job = this.jobs.get(jobId);
    if (!job) throw new AgentDeskError('not_found', `no cron job ${jobId}`);
    return job;
  }

  /** Applies a patch; a fixed blocked job becomes active again and is rescheduled from now. */
  update(jobId: string, patch: Partial<CronJobSpec>): CronJob {
    const current = this.get(jobId);
    const { id, status, blockedReason: _reason, nextRunAt, lastRunAt, createdAt, updatedAt, ...spec } = current;
    (void status, _reason, nextRunAt, updatedAt);
    const merged = parseSpec({ ...spec, ...patch });
    this.validate(merged);
    const now = this.clock.now();
    const job: CronJob = { ...merged, id, status: 'active', createdAt, updatedAt: isoAt(now), ...(lastRunAt && { lastRunAt }) };
    const scheduled = this.withNextRun(job, now);
    this.jobs.save(scheduled);
    return scheduled;
  }

  remove(jobId: string): boolean {
    return this.jobs.remove(jobId);
  }

  /** Fires a job now, outside its schedule (the overlap policy still applies). */
  runNow(jobId: string): CronRunView {
    const job = this.get(jobId);
    const now = this.clock.now();
    const run = this.rt.store.transaction(() => this.fire(job, now, 'manual', now));
    this.queue.pump();
    this.rt.bus.emit('cron.fired', run);
    return this.view(run);
  }

  /** A job's runs, newest first, with their tasks' current states. */
  runs(jobId: string, limit = 50): CronRunView[] {
    this.get(jobId);
    return this.jobs.runs(jobId, limit).map((r) => this.view(r));
  }

  /** Handles every job due at the clock's current time; returns the runs recorded. */
  tick(): CronRun[] {
    const now = this.clock.now();
    const recorded: CronRun[] = [];
    for (const job of this.jobs.due(isoAt(now))) {
      const runs = this.rt.store.immediateTransaction(() => {
        // Another process (a second worker, serve) may have fired it since this one looked.
        const fresh = this.jobs.get(job.id);
        const stillDue = fresh?.status === 'active' && fresh.enabled && fresh.nextRunAt !== undefined && fresh.nextRunAt <= isoAt(now);
        return stillDue ? this.handleDue(fresh, now) : [];
      });
      recorded.push(...runs);
    }
    this.queue.pump();
    for (const run of recorded) this.rt.bus.emit('cron.fired', run);
    return recorded;
  }

  /** Starts the queue (taking back orphaned entries) and the loop that fires jobs on the clock. */
  start(): void {
    this.queue.start();
    // A queued run detaches while it waits for an approval; the decision wakes it — from any client
    // of this process, or from another process on the store (a gateway with no worker, the CLI).
    this.stopWaking ??= this.rt.bus.on(
      { events: ['approval.resolved'] },
      (frame) => {
        const approval = frame.data as { taskId: string; status: string };
        if (approval.status === 'approved' || approval.status === 'denied') this.wake(approval.taskId);
      },
      { elsewhere: true },
    );
    if (this.loopAbort) return;
    this.loopAbort = new AbortController();
    this.loopDone = this.loop(this.loopAbort.signal);
  }

  /** Stops firing and starting; waits for running queue entries to end or wait. */
  async stop(): Promise<void> {
    this.stopWaking?.();
    this.stopWaking = undefined;
    this.loopAbort?.abort(new AgentDeskError('unavailable', 'scheduler stopped'));
    await this.loopDone;
    this.loopAbort = undefined;
    await this.queue.stop();
  }

  /**
   * A decided approval's task goes on here: through the queue when the queue ran it (its limits
   * hold), else — a run that detached and ended, e.g. `run --no-interactive` in a CLI that has
   * exited — resumed directly. A task running here or in another live process is left to it.
   */
  private wake(taskId: string): void {
    if (this.queue.wake(taskId)) return;
    const task = this.rt.store.tasks.get(taskId);
    if (task?.state !== 'waiting_approval' || this.rt.engine.isRunningHere(taskId)) return;
    if (this.queue.has(taskId)) return; // pending or running in the queue: it will get there
    try {
      this.rt.engine.resume(taskId);
    } catch (error) {
      if (!(error instanceof AgentDeskError && error.code === 'conflict')) throw error; // another live process runs it
    }
  }

  private async loop(signal: AbortSignal): Promise<void> {
    let lastTakeover = this.clock.now();
    while (!signal.aborted) {
      try {
        this.tick();
        if (this.clock.now() - lastTakeover >= TAKEOVER_EVERY_MS) {
          lastTakeover = this.clock.now();
          this.takeOverDead();
        }
      } catch (error) {
        process.stderr.write(`agent-desk scheduler: ${(error as Error).message}\n`);
      }
      const next = this.jobs.earliestDue();
      const wait = next === undefined ? MAX_IDLE_MS : Math.min(MAX_IDLE_MS, Math.max(5, Date.parse(next) - this.clock.now()));
      await this.clock.sleep(wait, signal).catch(() => undefined);
    }
  }

  /**
   * Queue entries and task runs of processes that died go on here: a worker killed with SIGKILL
   * leaves its pid on them, and the next live scheduler (another worker, a restarted one) takes them.
   */
  takeOverDead(): { entries: number; tasks: string[] } {
    const entries = this.queue.takeOverDead();
    const tasks = this.rt.engine.recoverOrphans();
    return { entries, tasks };
  }

  /** Missed fire times by the missed-run policy, then the on-time one; advances the job. */
  private handleDue(job: CronJob, now: number): CronRun[] {
    const schedule = new CronSchedule(job.schedule, job.timezone);
    const times = schedule.between(Date.parse(job.nextRunAt!), now);
    const graceMs = this.rt.config.startup.scheduler.missedGraceMs;
    const onTime = times.length > 0 && now - times.at(-1)! <= graceMs ? times.at(-1) : undefined;
    const missed = onTime === undefined ? times : times.slice(0, -1);
    const catchUp = job.missed === 'run_once' && onTime === undefined ? missed.at(-1) : undefined;
    const runs: CronRun[] = [];
    for (const t of missed) {
      if (t === catchUp) continue;
      const reason =
        job.missed === 'skip'
          ? 'missed while the runtime was down (missed-run policy: skip)'
          : 'missed while the runtime was down; covered by one run (missed-run policy: run_once)';
      const reasonText = { code: job.missed === 'skip' ? 'cron.missedSkip' : 'cron.missedRunOnce', params: {} };
      const run = this.record(job, t, 'schedule', 'skipped_missed', now, { reason, reasonText });
      if (run) runs.push(run);
    }
    let current = job;
    const fireAt = onTime ?? catchUp;
    if (fireAt !== undefined) {
      const run = this.fire(job, fireAt, onTime !== undefined ? 'schedule' : 'catch_up', now);
      runs.push(run);
      current = this.get(job.id); // firing may have blocked it
    }
    if (current.status === 'active') this.jobs.save(this.withNextRun({ ...current, lastRunAt: isoAt(now) }, now));
    return runs;
  }

  /**
   * Creates and enqueues the job's task, unless the overlap policy skips it or the job is broken.
   * The fire time is claimed first (its unique run row): a second process firing the same time
   * finds it taken before it creates anything, and its transaction ends with nothing written.
   */
  private fire(job: CronJob, scheduledFor: number, trigger: CronRun['trigger'], now: number): CronRun {
    const claimed = this.record(job, scheduledFor, trigger, 'queued', now, {}) ?? this.duplicate(job, scheduledFor);
    const settle = (run: CronRun) => (this.jobs.settleRun(run), run);
    const active = this.jobs.taskIds(job.id).find((id) => {
      const task = this.rt.store.tasks.get(id);
      return task !== undefined && !isTerminal(task.state);
    });
    if (active !== undefined && job.overlap === 'skip') {
      const reason = `task ${active} of the previous run is still active (overlap policy: skip)`;
      const reasonText = { code: 'cron.overlapSkip', params: { task: active } };
      return settle({ ...claimed, outcome: 'skipped_overlap', reason, reasonText });
    }
    let taskId: string;
    try {
      const agent = agentOfJob(job, (name) => this.agents.get(name));
      const built = buildCronTarget(this.rt, job, agent);
      taskId = this.rt.tasks.createBuilt(built.spec).id;
    } catch (error) {
      const reason = blockedReason(error);
      const { nextRunAt: _next, ...rest } = job;
      void _next;
      this.jobs.save({ ...rest, status: 'blocked', blockedReason: reason, updatedAt: isoAt(now) });
      const reasonText = { code: 'text.verbatim', params: {}, detail: reason };
      return settle({ ...claimed, outcome: 'blocked', reason, reasonText });
    }
    this.queue.add(taskId, {
      ...(job.agentId !== undefined && { agentId: job.agentId }),
      ...(job.overlap === 'queue' && { serialKey: `cron:${job.id}` }),
    });
    return settle({ ...claimed, taskId });
  }

  private record(
    job: CronJob,
    scheduledFor: number,
    trigger: CronRun['trigger'],
    outcome: CronRun['outcome'],
    now: number,
    extra: Pick<CronRun, 'taskId' | 'reason' | 'reasonText'>,
  ): CronRun | undefined {
    const run: CronRun = {
      id: `crun_${ulid()}`,
      jobId: job.id,
      scheduledFor: isoAt(scheduledFor),
      firedAt: isoAt(now),
      trigger,
      outcome,
      ...extra,
    };
    return this.jobs.addRun(run) ? run : undefined;
  }

  private duplicate(job: CronJob, scheduledFor: number): never {
    throw new AgentDeskError('conflict', `fire time ${isoAt(scheduledFor)} of job ${job.id} was already handled`);
  }

  private view(run: CronRun): CronRunView {
    const state = run.taskId === undefined ? undefined : this.rt.store.tasks.get(run.taskId)?.state;
    return state === undefined ? run : { ...run, taskState: state };
  }

  /** Checks what can be checked without firing: schedule, time zone, agent, playbook and inputs. */
  private validate(spec: CronJobSpec): void {
    new CronSchedule(spec.schedule, spec.timezone);
    const agent = agentOfJob(spec, (name) => this.agents.get(name));
    const { spec: task } = buildCronTarget(this.rt, spec, agent);
    this.rt.gate.checkTask(task); // e.g. the agent's policy profile is not in the config
  }

  private withNextRun(job: CronJob, now: number): CronJob {
    const { nextRunAt: _old, blockedReason: _reason, ...rest } = job;
    (void _old, _reason);
    if (!job.enabled) return { ...rest, status: 'paused' };
    const next = new CronSchedule(job.schedule, job.timezone).next(now);
    return next === undefined ? { ...rest, status: 'paused' } : { ...rest, status: 'active', nextRunAt: isoAt(next) };
  }
}

function parseSpec(input: unknown): CronJobSpec {
  const parsed = CronJobSpecSchema.safeParse(input);
  if (!parsed.success) {
    const issues = issuesFromZod(parsed.error.issues);
    throw new AgentDeskError('invalid_params', `invalid cron job:\n${describeIssues(issues)}`, { issues });
  }
  return parsed.data;
}
