import { ulid } from 'ulid';
import { CronJobSpecSchema, type CronJob, type CronJobSpec, type CronRun, type TaskState } from '../../contract/index.js';
import type { RuntimeCore } from '../core/runtimeCore.js';
import { isoAt, type Clock } from '../clock.js';
import { processIsAlive } from '../engine/engineDeps.js';
import { isTerminal } from '../engine/stateMachine.js';
import { AgentDeskError, describeIssues, issuesFromZod } from '../errors.js';
import { AgentRepo } from '../store/agentRepo.js';
import { CronRepo } from '../store/cronRepo.js';
import type { Repos } from '../store/store.js';
import { TaskQueueRepo } from '../store/taskQueueRepo.js';
import { BackgroundQueue } from './backgroundQueue.js';
import { CronSchedule } from './cronSchedule.js';
import { agentOfJob, blockedReason, buildCronTarget, fireTarget, type FireTarget } from './cronTarget.js';

/** A run record with the current state of its task. */
export type CronRunView = CronRun & { taskState?: TaskState };

/** One fire's transaction: the task record's repositories, and the cron and queue tables on the same session. */
interface FireTx {
  tx: Repos;
  jobs: CronRepo;
  queue: TaskQueueRepo;
}

const fireTx = (tx: Repos): FireTx => ({ tx, jobs: new CronRepo(tx.sql), queue: new TaskQueueRepo(tx.sql) });

/** Scheduler errors with no caller to throw to (the loop, a wake-up): one line on stderr. */
const report = (error: unknown): void => {
  process.stderr.write(`agent-desk scheduler: ${(error as Error)?.message ?? String(error)}\n`);
};

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
  /** Wake-ups run one after another; `stop()` waits for the last. */
  private waking: Promise<void> = Promise.resolve();

  constructor(
    private readonly rt: RuntimeCore,
    overrides: { concurrency?: number } = {},
  ) {
    this.clock = rt.clock;
    this.jobs = new CronRepo(rt.store.sql);
    this.agents = new AgentRepo(rt.store.sql);
    const limits = { ...rt.config.startup.scheduler, ...overrides };
    this.queue = new BackgroundQueue({
      engine: rt.engine,
      repo: new TaskQueueRepo(rt.store.sql),
      clock: this.clock,
      lease: rt.lease,
      limits: { concurrency: limits.concurrency, perAgent: async (name) => (await this.agents.get(name))?.maxConcurrent },
    });
  }

  /** Validates and stores a job; its first fire time is the next one after now. */
  async add(input: unknown): Promise<CronJob> {
    const spec = parseSpec(input);
    await this.validate(spec);
    const now = this.clock.now();
    const job: CronJob = { ...spec, id: `cron_${ulid()}`, status: 'active', createdAt: isoAt(now), updatedAt: isoAt(now) };
    const scheduled = this.withNextRun(job, now);
    await this.jobs.save(scheduled);
    return scheduled;
  }

  list(): Promise<CronJob[]> {
    return this.jobs.list();
  }

  get(jobId: string): Promise<CronJob> {
    return existing(this.jobs, jobId);
  }

  /** Applies a patch; a fixed blocked job becomes active again and is rescheduled from now. */
  async update(jobId: string, patch: Partial<CronJobSpec>): Promise<CronJob> {
    const current = await this.get(jobId);
    const { id, status, blockedReason: _reason, nextRunAt, lastRunAt, createdAt, updatedAt, ...spec } = current;
    (void status, _reason, nextRunAt, updatedAt);
    const merged = parseSpec({ ...spec, ...patch });
    await this.validate(merged);
    const now = this.clock.now();
    const job: CronJob = { ...merged, id, status: 'active', createdAt, updatedAt: isoAt(now), ...(lastRunAt && { lastRunAt }) };
    const scheduled = this.withNextRun(job, now);
    await this.jobs.save(scheduled);
    return scheduled;
  }

  remove(jobId: string): Promise<boolean> {
    return this.jobs.remove(jobId);
  }

  /** Fires a job now, outside its schedule (the overlap policy still applies). */
  async runNow(jobId: string): Promise<CronRunView> {
    const job = await this.get(jobId);
    const target = await fireTarget(this.rt, job, (name) => this.agents.get(name));
    const now = this.clock.now();
    const run = await this.rt.store.transaction((tx) => this.fire(fireTx(tx), job, target, now, 'manual', now));
    await this.queue.pump();
    this.rt.bus.emit('cron.fired', run);
    return this.view(run);
  }

  /** A job's runs, newest first, with their tasks' current states. */
  async runs(jobId: string, limit = 50): Promise<CronRunView[]> {
    await this.get(jobId);
    return Promise.all((await this.jobs.runs(jobId, limit)).map((r) => this.view(r)));
  }

  /** Handles every job due at the clock's current time; returns the runs recorded. */
  async tick(): Promise<CronRun[]> {
    const now = this.clock.now();
    const recorded: CronRun[] = [];
    for (const job of await this.jobs.due(isoAt(now))) recorded.push(...(await this.tickJob(job, now)));
    await this.queue.pump();
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
        if (approval.status === 'approved' || approval.status === 'denied') this.queueWake(approval.taskId);
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
    await this.waking;
    await this.queue.stop();
  }

  /** Wakes a task after its approval was decided, behind the wake-ups before it; failures are reported. */
  private queueWake(taskId: string): void {
    this.waking = this.waking.then(() => this.wake(taskId)).catch(report);
  }

  /**
   * A decided approval's task goes on here: through the queue when the queue ran it (its limits
   * hold), else — a run that detached and ended, e.g. `run --no-interactive` in a CLI that has
   * exited — resumed directly. A task running here or in another live process is left to it.
   */
  private async wake(taskId: string): Promise<void> {
    if (await this.queue.wake(taskId)) return;
    const task = await this.rt.store.tasks.get(taskId);
    if (task?.state !== 'waiting_approval' || this.rt.engine.isRunningHere(taskId)) return;
    if (await this.queue.has(taskId)) return; // pending or running in the queue: it will get there
    try {
      await this.rt.engine.resume(taskId);
    } catch (error) {
      if (!(error instanceof AgentDeskError && error.code === 'conflict')) throw error; // another live process runs it
    }
  }

  private async loop(signal: AbortSignal): Promise<void> {
    let lastTakeover = this.clock.now();
    while (!signal.aborted) {
      let wait = MAX_IDLE_MS;
      try {
        await this.tick();
        if (this.clock.now() - lastTakeover >= TAKEOVER_EVERY_MS) {
          lastTakeover = this.clock.now();
          await this.takeOverDead();
        }
        wait = await this.idleWait();
      } catch (error) {
        report(error);
      }
      await this.clock.sleep(wait, signal).catch(() => undefined);
    }
  }

  /** How long the loop may sleep: until the earliest fire time, at most MAX_IDLE_MS. */
  private async idleWait(): Promise<number> {
    const next = await this.jobs.earliestDue();
    return next === undefined ? MAX_IDLE_MS : Math.min(MAX_IDLE_MS, Math.max(5, Date.parse(next) - this.clock.now()));
  }

  /**
   * Queue entries and task runs of processes that died go on here: a worker killed with SIGKILL
   * leaves its worker id on them, and once its lease ends the next live scheduler (another worker, a restarted one) takes them.
   */
  async takeOverDead(): Promise<{ entries: number; tasks: string[] }> {
    const entries = await this.queue.takeOverDead();
    const tasks = await this.rt.engine.recoverOrphans();
    return { entries, tasks };
  }

  /**
   * Handles one due job in a write transaction of its own, its row re-read there (and locked on
   * PostgreSQL), so two processes never fire one time twice.
   */
  private async tickJob(job: CronJob, now: number): Promise<CronRun[]> {
    // Built before the transaction: building reads the store (the agent), which inside it must not.
    const target = await fireTarget(this.rt, job, (name) => this.agents.get(name));
    return this.rt.store.transaction(async (tx) => {
      const t = fireTx(tx);
      // Another process (a second worker, serve) may have fired it since this one looked, or
      // edited it (the target was built from the row read before).
      const fresh = await t.jobs.getForUpdate(job.id);
      const stillDue =
        fresh?.status === 'active' &&
        fresh.enabled &&
        fresh.nextRunAt !== undefined &&
        fresh.nextRunAt <= isoAt(now) &&
        fresh.updatedAt === job.updatedAt;
      return stillDue ? this.handleDue(t, fresh, target, now) : [];
    });
  }

  /** Missed fire times by the missed-run policy, then the on-time one; advances the job. */
  private async handleDue(t: FireTx, job: CronJob, target: FireTarget, now: number): Promise<CronRun[]> {
    const schedule = new CronSchedule(job.schedule, job.timezone);
    const times = schedule.between(Date.parse(job.nextRunAt!), now);
    const graceMs = this.rt.config.startup.scheduler.missedGraceMs;
    const onTime = times.length > 0 && now - times.at(-1)! <= graceMs ? times.at(-1) : undefined;
    const missed = onTime === undefined ? times : times.slice(0, -1);
    const catchUp = job.missed === 'run_once' && onTime === undefined ? missed.at(-1) : undefined;
    const runs: CronRun[] = [];
    for (const time of missed) {
      if (time === catchUp) continue;
      const reason =
        job.missed === 'skip'
          ? 'missed while the runtime was down (missed-run policy: skip)'
          : 'missed while the runtime was down; covered by one run (missed-run policy: run_once)';
      const reasonText = { code: job.missed === 'skip' ? 'cron.missedSkip' : 'cron.missedRunOnce', params: {} };
      const run = await this.record(t.jobs, job, time, 'schedule', 'skipped_missed', now, { reason, reasonText });
      if (run) runs.push(run);
    }
    let current = job;
    const fireAt = onTime ?? catchUp;
    if (fireAt !== undefined) {
      const run = await this.fire(t, job, target, fireAt, onTime !== undefined ? 'schedule' : 'catch_up', now);
      runs.push(run);
      current = await existing(t.jobs, job.id); // firing may have blocked it
    }
    if (current.status === 'active') await t.jobs.save(this.withNextRun({ ...current, lastRunAt: isoAt(now) }, now));
    return runs;
  }

  /**
   * Creates and enqueues the job's task, unless the overlap policy skips it or the job is broken.
   * The fire time is claimed first (its unique run row): a second process firing the same time
   * finds it taken before it creates anything, and its transaction ends with nothing written.
   */
  private async fire(
    t: FireTx,
    job: CronJob,
    target: FireTarget,
    scheduledFor: number,
    trigger: CronRun['trigger'],
    now: number,
  ): Promise<CronRun> {
    const claimed = (await this.record(t.jobs, job, scheduledFor, trigger, 'queued', now, {})) ?? this.duplicate(job, scheduledFor);
    const settle = async (run: CronRun) => (await t.jobs.settleRun(run), run);
    const active = await activeTask(t, job.id);
    if (active !== undefined && job.overlap === 'skip') {
      const reason = `task ${active} of the previous run is still active (overlap policy: skip)`;
      const reasonText = { code: 'cron.overlapSkip', params: { task: active } };
      return settle({ ...claimed, outcome: 'skipped_overlap', reason, reasonText });
    }
    let taskId: string;
    try {
      if ('broken' in target) throw target.broken;
      taskId = (await this.rt.tasks.createBuilt(target.built.spec, t.tx)).id;
    } catch (error) {
      const reason = blockedReason(error);
      const { nextRunAt: _next, ...rest } = job;
      void _next;
      await t.jobs.save({ ...rest, status: 'blocked', blockedReason: reason, updatedAt: isoAt(now) });
      const reasonText = { code: 'text.verbatim', params: {}, detail: reason };
      return settle({ ...claimed, outcome: 'blocked', reason, reasonText });
    }
    const opts = {
      ...(job.agentId !== undefined && { agentId: job.agentId }),
      ...(job.overlap === 'queue' && { serialKey: `cron:${job.id}` }),
    };
    await this.queue.add(taskId, opts, t.queue);
    return settle({ ...claimed, taskId });
  }

  private async record(
    jobs: CronRepo,
    job: CronJob,
    scheduledFor: number,
    trigger: CronRun['trigger'],
    outcome: CronRun['outcome'],
    now: number,
    extra: Pick<CronRun, 'taskId' | 'reason' | 'reasonText'>,
  ): Promise<CronRun | undefined> {
    const run: CronRun = {
      id: `crun_${ulid()}`,
      jobId: job.id,
      scheduledFor: isoAt(scheduledFor),
      firedAt: isoAt(now),
      trigger,
      outcome,
      ...extra,
    };
    return (await jobs.addRun(run)) ? run : undefined;
  }

  private duplicate(job: CronJob, scheduledFor: number): never {
    throw new AgentDeskError('conflict', `fire time ${isoAt(scheduledFor)} of job ${job.id} was already handled`);
  }

  private async view(run: CronRun): Promise<CronRunView> {
    const state = run.taskId === undefined ? undefined : (await this.rt.store.tasks.get(run.taskId))?.state;
    return state === undefined ? run : { ...run, taskState: state };
  }

  /** Checks what can be checked without firing: schedule, time zone, agent, playbook and inputs. */
  private async validate(spec: CronJobSpec): Promise<void> {
    new CronSchedule(spec.schedule, spec.timezone);
    const agent = await agentOfJob(spec, (name) => this.agents.get(name));
    const { spec: task } = await buildCronTarget(this.rt, spec, agent);
    await this.rt.gate.checkTask(task); // e.g. the agent's policy profile is not in the config
  }

  private withNextRun(job: CronJob, now: number): CronJob {
    const { nextRunAt: _old, blockedReason: _reason, ...rest } = job;
    (void _old, _reason);
    if (!job.enabled) return { ...rest, status: 'paused' };
    const next = new CronSchedule(job.schedule, job.timezone).next(now);
    return next === undefined ? { ...rest, status: 'paused' } : { ...rest, status: 'active', nextRunAt: isoAt(next) };
  }
}

/** The job, or not_found. */
async function existing(jobs: CronRepo, jobId: string): Promise<CronJob> {
  const job = await jobs.get(jobId);
  if (!job) throw new AgentDeskError('not_found', `no cron job ${jobId}`);
  return job;
}

/** The newest task of the job's earlier runs that has not ended, if any. */
async function activeTask(t: FireTx, jobId: string): Promise<string | undefined> {
  for (const id of await t.jobs.taskIds(jobId)) {
    const task = await t.tx.tasks.get(id);
    if (task !== undefined && !isTerminal(task.state)) return id;
  }
  return undefined;
}

function parseSpec(input: unknown): CronJobSpec {
  const parsed = CronJobSpecSchema.safeParse(input);
  if (!parsed.success) {
    const issues = issuesFromZod(parsed.error.issues);
    throw new AgentDeskError('invalid_params', `invalid cron job:\n${describeIssues(issues)}`, { issues });
  }
  return parsed.data;
}
