import { mkdirSync } from 'node:fs';
import type { Step, Task, TaskState, TraceEventType, UncertainResolution } from '../../contract/index.js';
import { isoAt } from '../clock.js';
import { quickDigestOf } from '../digest.js';
import { AgentDeskError } from '../errors.js';
import type { PlannerDecision } from '../planning/planner.js';
import { loopStop, taskBudgetStop, type BudgetStop } from './budgetStop.js';
import { budgetHold, chargeSpend, limitReached, writeUsage } from './runBudget.js';
import { CommitQueue, type Write } from './commitQueue.js';
import type { EngineDeps } from './engineDeps.js';
import { refusedClaim } from './leaseRefusal.js';
import { RunHold, type ReleaseWrites } from './runHold.js';
import { LoopDetector } from './loopDetector.js';
import type { RunningServices, TaskPlan, TemplateEnv } from './ports.js';
import { completedSteps, executeBatch } from './batch.js';
import type { RunControl, RunView } from './runView.js';
import { isTerminal } from './stateMachine.js';
import { movesToRunning, plannedMoves, recordMoves } from './stateMoves.js';
import { StepExecutor, type StepOutcome } from './stepExecutor.js';
import { StepLog } from './stepLog.js';
import type { StepRecorder } from './stepRecorder.js';
import { type AnyStateReason, stateReasons, stepError, stepErrors } from './stateReasons.js';
import { UsageMeter } from './usageMeter.js';
import { extend } from '../extend.js';
import { storeUnreachable } from '../store/openErrors.js';
import type { Repos } from '../store/store.js';

/** How often a runner reads pause/cancel requests made by other processes. */
const CONTROL_POLL_MS = 100;
/** How one run should behave. */
export interface RunOptions {
  /** Return as soon as the task waits for an approval (non-interactive CLI) instead of waiting. */
  detachOnApproval?: boolean;
  /** How to settle a step whose side effect may or may not have happened. */
  resolution?: UncertainResolution;
  /** Secret inputs, held in memory only. */
  secrets?: Record<string, string>;
  /** Writes that land with the run's lease release, in its one commit: the queue's entry finished (scheduler/backgroundQueue.ts). */
  releaseWith?: ReleaseWrites;
}

/** Why a run stopped: the task reached a state the runner does not drive further. */
export type RunStop = 'stopped';

/**
 * Drives one task from its recorded state until it ends or must wait: observe → plan the
 * smallest next step → gate → route → execute → record → verify → decide.
 */
export class TaskRun {
  readonly abort = new AbortController();
  private task!: Task;
  private steps = new StepLog();
  private plan!: TaskPlan;
  private services: RunningServices | undefined;
  /** The hosts of `services`, which external_http may reach for this run. */
  private serviceHosts: readonly string[] = [];
  private readonly loop: LoopDetector;
  private controlCheckedAt = -Infinity;
  private controlRequested = false;
  private readonly commits: CommitQueue;
  private readonly meter: UsageMeter;
  /** What the step executor writes, over `commits`. */
  private readonly recorder: StepRecorder;
  /** Aborts the planner's in-flight call (a model request) on pause or cancel. */
  private planning: AbortController | undefined;
  /** True while a step's `extra` runs: what it writes joins the step's commit instead of committing on its own. */
  private assembling = false;
  private readonly hold: RunHold;

  constructor(
    private readonly deps: EngineDeps,
    readonly taskId: string,
    private readonly options: RunOptions,
    private readonly prebuiltPlan?: TaskPlan,
  ) {
    this.loop = new LoopDetector(deps.loopThreshold);
    this.hold = new RunHold(deps, taskId);
    this.commits = new CommitQueue(deps.clock, (fn) => this.hold.commit(fn, (lost) => this.abort.abort(lost)));
    this.meter = new UsageMeter(deps.clock, (usage, at) => this.commits.writeDetached((tx) => writeUsage(tx, this.task, usage, at), true));
    this.recorder = {
      saveStep: (step, extra, lazy) => this.saveStep(step, extra, lazy),
      trace: (type, data, stepId) => this.trace(type, data, stepId),
      commit: this.commitWrite,
    };
  }

  /** Runs until the task is terminal or waiting; returns the task as it then is. */
  async run(): Promise<Task> {
    const claimed = await this.claim();
    if (!claimed) throw await refusedClaim(this.deps, this.taskId);
    this.deps.gate.taskClaimed(claimed); // another process may have run it since this one last did
    let rested: Task | undefined;
    try {
      return (rested = await this.runHeld(claimed));
    } finally {
      await this.commits.flush();
      await this.services?.stop().catch(() => undefined);
      await this.hold.release(rested, this.options.releaseWith);
    }
  }

  private async runHeld(claimed: Task): Promise<Task> {
    const { store } = this.deps;
    try {
      this.task = claimed;
      if (isTerminal(this.task.state)) return this.task;
      // A worker on another machine than the one that created the task makes its workspace here.
      mkdirSync(this.task.workspace, { recursive: true });
      this.plan = this.prebuiltPlan ?? (await this.deps.plans(this.task));
      // A task still `queued` never ran (nothing leads back to queued), so it has no step rows to read.
      this.steps = new StepLog(this.task.state === 'queued' ? [] : await store.steps.forTask(this.taskId));
      this.task = { ...this.task, usage: { ...this.task.usage, steps: this.steps.executedCount() } };
      this.meter.start(this.task.usage, this.task.state);
      if ((await this.missingSecret()) === 'stopped' || (await this.settleInterruptedSteps()) === 'stopped') return await this.load();
      const firstRun = this.task.state === 'queued';
      await this.enterRunning();
      if (firstRun && (await this.startHooks()) === 'stopped') return await this.load();
      await this.startServices();
      await this.drive();
      // An ended task changes no more, and this run wrote its last state (`transition` reads it back).
      return isTerminal(this.task.state) ? this.task : await this.load();
    } catch (error) {
      // The store went away mid-run: nothing half-written landed; the task resumes once it answers (a takeover).
      if (storeUnreachable(error)) throw error;
      if (!isTerminal((await this.load()).state) && !this.abort.signal.aborted) {
        await this.transition('failed', stateReasons.runtimeError(error instanceof Error ? error.message : String(error)));
      }
      return await this.load();
    }
  }

  /** Tells the runner a pause or cancel was recorded for it (same process). */
  notifyControl(): void {
    this.controlRequested = true;
    this.planning?.abort(new AgentDeskError('conflict', 'pause or cancel requested'));
  }

  /** Asks the planner for the next step; a pause or cancel aborts an in-flight model call (→ undefined). */
  private async planNext(): Promise<PlannerDecision | undefined> {
    const planning = new AbortController();
    const onAbort = () => planning.abort(this.abort.signal.reason);
    this.abort.signal.addEventListener('abort', onAbort, { once: true });
    this.planning = planning;
    try {
      return await this.plan.planner.next(this.plannerState(), planning.signal);
    } catch (error) {
      if (planning.signal.aborted) return undefined;
      throw error;
    } finally {
      this.planning = undefined;
      this.abort.signal.removeEventListener('abort', onAbort);
    }
  }

  /** Applies a pending pause/cancel to a task no runner is driving. */
  async applyControlOnly(): Promise<Task> {
    const { store } = this.deps;
    const claimed = await this.claim();
    if (!claimed) return this.load();
    try {
      this.task = claimed;
      this.steps = new StepLog(await store.steps.forTask(this.taskId));
      this.meter.start(this.task.usage, this.task.state); // the usage written with the transition must not count time nobody ran
      if (!isTerminal(this.task.state)) await this.honourControl();
      return await this.load();
    } finally {
      await this.commits.flush();
      await this.hold.release();
    }
  }

  /** The runner lease (`RunHold`); its control flags come with it, so the first check for a pause or cancel reads nothing more. */
  private async claim(): Promise<Task | undefined> {
    const claimed = await this.hold.claim();
    if (!claimed) return undefined;
    this.controlCheckedAt = this.deps.clock.now();
    if (claimed.control) this.controlRequested = true;
    return claimed.task;
  }

  private async drive(): Promise<void> {
    const run = this.runView();
    const executor = new StepExecutor(this.deps, run, this.recorder);
    for (;;) {
      if ((await this.honourControl()) === 'stopped') return;
      const over = await limitReached(this.deps, this.task, this.meter.now(), isoAt(this.deps.clock.now()), (fn) => this.write(fn));
      if (over) return void (await this.askToRaise(over));
      const decision = await this.planNext();
      if (!decision) return void (await this.honourControl());
      this.meter.addPlanner(decision.usage);
      // The turn that spent the last tokens or dollars does not get its calls run.
      const spent = decision.type === 'call' || decision.type === 'batch' ? taskBudgetStop(this.task.budget, this.meter.now()) : undefined;
      if (spent) return void (await this.askToRaise(spent, { notRun: decision.type === 'batch' ? decision.calls.length : 1 }));
      if (decision.type === 'done') return this.finish();
      if (decision.type === 'fail') return void (await this.fail(stateReasons.plannerGaveUp(decision.reason)));
      if (decision.type === 'wait') return this.transition('waiting_user', stateReasons.plannerWaits(decision.reason));
      if (decision.type === 'batch') {
        const results = await executeBatch(this.deps, run, this.recorder, decision);
        if (results.some((r) => r.outcome.kind === 'stop')) return;
        for (const { decision: d, step } of completedSteps(results)) if (await this.detectLoop(d, step)) return;
        continue;
      }
      const outcome = await executor.execute(decision);
      if (outcome.kind === 'stop') return;
      if (outcome.kind === 'completed' && (await this.detectLoop(decision, outcome.step))) return;
    }
  }

  // ---- recovery ----------------------------------------------------------------------------

  /** Steps left `started` by a crash: re-run the safe ones, hold the rest for the user. */
  private async settleInterruptedSteps(): Promise<RunStop | 'ok'> {
    for (const step of this.latestSteps()) {
      if (step.status !== 'started' && step.status !== 'uncertain') continue;
      if (step.status === 'started') await this.cleanUpInterrupted(step);
      if (step.status === 'started' && (step.readOnly || step.idempotent)) continue; // re-run in place
      const resolution = this.options.resolution;
      if (!resolution) return this.holdUncertain(step);
      if (resolution === 'fail') {
        await this.saveStep({ ...step, status: 'failed', ...stepError(stepErrors.failedByUser()) });
        return this.fail(stateReasons.stepFailedByUser(step));
      }
      if (resolution === 'skip') {
        await this.saveStep({ ...step, status: 'skipped', ...stepError(stepErrors.skippedByUser()) }, () =>
          this.trace('step.skipped', { index: step.index, tool: step.tool }, step.id),
        );
      } else {
        await this.saveStep({ ...step, status: 'started', error: undefined, errorText: undefined });
      }
    }
    return 'ok';
  }

  /** Lets the tool of a call killed mid-way clear what it left half done (fs.write: its temp file). */
  private async cleanUpInterrupted(step: Step): Promise<void> {
    let candidate;
    try {
      const args = (step.args ?? {}) as Record<string, unknown>;
      candidate = (await this.deps.router.plan({ tool: step.tool, args })).candidates.find((c) => c.tool.name === step.tool);
    } catch {
      return; // the tool is gone or refuses the recorded arguments: nothing of it to clean up
    }
    await candidate?.tool.cleanUpInterrupted?.(candidate.args, { workspace: this.task.workspace }).catch(() => undefined);
  }

  /** TaskStart is observed; a goal a UserPromptSubmit hook blocks never reaches the model. */
  private async startHooks(): Promise<RunStop | 'ok'> {
    const blocked = this.deps.hooks && (await this.deps.hooks.taskStarting(this.task));
    return blocked ? this.fail(stateReasons.goalBlockedByHook(blocked)) : 'ok';
  }

  /** Secret inputs are never stored; without them a step would send a placeholder. */
  private async missingSecret(): Promise<RunStop | 'ok'> {
    for (const [name, value] of Object.entries(this.task.inputs)) {
      if (value !== `[secret:${name}]` || this.options.secrets?.[name] !== undefined) continue;
      const reason = stateReasons.secretMissing(name);
      if (this.task.state === 'queued') await this.transition('planning', stateReasons.runStarted());
      if (this.task.state !== 'waiting_user') await this.transition('waiting_user', reason);
      return 'stopped';
    }
    return 'ok';
  }

  private async holdUncertain(step: Step): Promise<RunStop> {
    if (step.status !== 'uncertain') {
      await this.saveStep({ ...step, status: 'uncertain', ...stepError(stepErrors.interruptedUncertain()) }, () =>
        this.trace('step.uncertain', { index: step.index, tool: step.tool, idempotencyKey: step.idempotencyKey }, step.id),
      );
    }
    const reason = stateReasons.stepUncertain(step);
    if (this.task.state !== 'waiting_user') await this.transition('waiting_user', reason);
    return 'stopped';
  }

  // ---- state ---------------------------------------------------------------------------------

  private async enterRunning(): Promise<void> {
    const moves = movesToRunning(this.task.state);
    if (moves.length > 0) await this.transitions(moves);
  }

  /** Records a state change (row, trace, event) — always before anything acts on it. */
  async transition(to: TaskState, why: AnyStateReason): Promise<void> {
    await this.transitions([[to, why]]);
  }

  /**
   * State changes in order, in one commit. After the commit each state is announced in turn, as
   * if committed one by one (listeners such as the telemetry export tell a fresh run from a
   * resumed one by the states it passes through).
   */
  private async transitions(changes: readonly (readonly [TaskState, AnyStateReason])[]): Promise<void> {
    const moves = plannedMoves(this.task.state, changes);
    const at = isoAt(this.deps.clock.now());
    const usage = this.meter.now();
    for (const { to } of moves) this.meter.trackHumanWait(to);
    let states: (() => Task)[] = [];
    await this.write(async (tx) => {
      await chargeSpend(tx, this.task, usage, at);
      states = await recordMoves(tx, this.deps.trace, this.taskId, moves, { at, usage });
    });
    for (const state of states) {
      this.task = state();
      this.deps.emit('task.updated', this.task);
    }
  }

  private async fail(why: AnyStateReason): Promise<RunStop> {
    await this.transition('failed', why);
    return 'stopped';
  }

  /** Pause or cancel requested by any client (this process or another sharing the database). */
  private async honourControl(): Promise<RunStop | 'go'> {
    // Requests from this process arrive through `controlRequested`; other processes'
    // through the database, read at most every CONTROL_POLL_MS to keep steps cheap.
    const now = this.deps.clock.now();
    if (!this.controlRequested && now - this.controlCheckedAt < CONTROL_POLL_MS) return 'go';
    this.controlRequested = false;
    this.controlCheckedAt = now;
    const { control, reason } = await this.deps.store.tasks.control(this.taskId);
    if (!control) return 'go';
    await this.deps.store.tasks.requestControl(this.taskId, null);
    for (const step of this.latestSteps()) {
      const approvalId = step.approvalId;
      if (step.status === 'waiting_approval' && approvalId && control === 'cancel') {
        // It never ran: it ends with the task instead of showing as a step still waiting.
        const ended = { status: 'skipped' as const, ...stepError(stepErrors.cancelledWhileWaiting()), endedAt: isoAt(now) };
        // The approval is cancelled in order, before the step's record and the transition.
        this.commits.queue((tx) => this.deps.approvals.cancelWithin(tx, approvalId, 'task cancelled'));
        await this.saveStep(extend(step, ended));
      }
    }
    await this.transition(control === 'cancel' ? 'cancelled' : 'paused', stateReasons.control(control, reason));
    return 'stopped';
  }

  private async finish(): Promise<void> {
    const checks = this.plan.acceptance({
      inputs: this.inputs(),
      outputs: this.outputsByPlanStep(),
      env: this.templateEnv(),
      task: this.task,
    });
    // URL checks may reach the same hosts as the task's tools: its playbook's own services.
    const networkAllow = this.serviceHosts;
    const results = await this.deps.runChecks(checks, { workspace: this.task.workspace, signal: this.abort.signal, networkAllow });
    // The results, their trace events included, land with the transition below: one commit.
    for (const r of results) this.commits.queue(this.traceWrite('check.result', { ...r }));
    const at = isoAt(this.deps.clock.now());
    this.commits.queue((tx) => tx.tasks.setChecks(this.taskId, results, at));
    const failed = results.filter((r) => !r.passed);
    if (failed.length > 0) {
      await this.fail(stateReasons.checksFailed(failed));
    } else {
      await this.transition('succeeded', stateReasons.checksPassed(results.length));
    }
  }

  private async detectLoop(decision: Extract<PlannerDecision, { type: 'call' }>, step: Step): Promise<boolean> {
    const looped = this.loop.record(quickDigestOf([step.tool, decision.args]), step.outputDigest ?? '');
    if (looped) await this.askToRaise(loopStop(step.tool, this.loop.repeats));
    return looped;
  }

  // ---- budgets that pause and ask (docs/architecture.md, "Budgets") -------------------------

  /** Stops at a limit with a question that survives restarts (a hold); `budgets.raise` lets the task continue. */
  private async askToRaise(stop: BudgetStop, data: Record<string, unknown> = {}): Promise<RunStop> {
    const hold = budgetHold(this.taskId, stop, isoAt(this.deps.clock.now()), data);
    this.trace(hold.event, hold.data);
    this.commits.queue(hold.persist); // lands with the transition
    await this.transition('waiting_user', stop.why);
    return 'stopped';
  }

  // ---- what the step executor sees of the run (built once per run) --------------------------

  private runView(): RunView & RunControl {
    return {
      task: () => this.task,
      latestStep: (index) => this.steps.latest(index),
      signal: this.abort.signal,
      networkAllow: () => this.serviceHosts,
      detachOnApproval: this.options.detachOnApproval ?? false,
      transition: (to, why) => this.transition(to, why),
      fail: async (why) => void (await this.fail(why)),
      honourControl: () => this.honourControl(),
      countStep: () => this.meter.countStep(),
    };
  }

  /**
   * Records a step. `lazy` (completed read-only calls only) may join a later commit: losing it
   * to a crash only means the read is done again, and batching keeps steps cheap.
   */
  private async saveStep(step: Step, extra?: () => void, lazy = false): Promise<Step> {
    const stored = this.deps.redactor.value(step);
    this.commits.queue((tx) => tx.steps.save(stored));
    this.assembling = true;
    try {
      extra?.();
    } finally {
      this.assembling = false;
    }
    this.steps.upsert(step);
    await this.commits.settle(lazy);
    this.deps.emit('task.step', stored);
    return step;
  }

  private trace(type: TraceEventType, data: Record<string, unknown>, stepId?: string): void {
    const write = this.traceWrite(type, data, stepId);
    if (this.assembling) this.commits.queue(write);
    else this.commits.writeDetached(write);
  }

  private traceWrite(type: TraceEventType, data: Record<string, unknown>, stepId?: string): Write {
    return (tx) => this.deps.trace.append(this.taskId, type, data, stepId, tx.trace);
  }

  /** Queues a database write in the run's commit order (see CommitQueue); inside a step's `extra` it joins that step's commit. */
  private write(fn: Write, lazy = false): Promise<void> {
    if (!this.assembling) return this.commits.write(fn, lazy);
    this.commits.queue(fn);
    return Promise.resolve();
  }

  private async load(): Promise<Task> {
    const task = await this.deps.store.tasks.get(this.taskId);
    if (!task) throw new AgentDeskError('not_found', `no task ${this.taskId}`);
    return task;
  }

  private latestSteps(): Step[] {
    return [...this.steps.latestAll().values()];
  }

  private inputs(): Record<string, unknown> {
    return { ...this.task.inputs, ...this.options.secrets };
  }

  private outputsByPlanStep(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const s of this.steps.latestAll().values()) if (s.status === 'completed' && s.planStepId) out[s.planStepId] = s.output;
    return out;
  }

  private templateEnv(): TemplateEnv {
    const urls = this.services?.urls ?? {};
    return { services: Object.fromEntries(Object.entries(urls).map(([name, url]) => [name, { url }])) };
  }

  private plannerState() {
    return {
      task: this.task,
      steps: this.steps.all(),
      latest: this.steps.latestAll(),
      inputs: this.inputs(),
      env: this.templateEnv() as unknown as Record<string, unknown>,
      commit: this.commitWrite,
    };
  }

  /** A planner's write, joined to the next step record or transition (one commit, not two); `lazy: false` commits it now, in order. */
  readonly commitWrite = (write: Write, lazy = true): Promise<void> => this.write(write, lazy);

  private async startServices(): Promise<void> {
    if (this.plan.services.length === 0) return;
    if (!this.deps.services) throw new AgentDeskError('unavailable', 'this runtime cannot start playbook services');
    const before = (await this.deps.trace.last(this.taskId, 'service.started'))?.data.services as Record<string, string> | undefined;
    const ports = Object.fromEntries(Object.entries(before ?? {}).map(([name, url]) => [name, Number(new URL(url).port)]));
    this.services = await this.deps.services.start(this.plan.services, {
      baseDir: this.plan.baseDir,
      workspace: this.task.workspace,
      ports,
    });
    this.serviceHosts = Object.values(this.services.urls).map((url) => new URL(url).host);
    this.trace('service.started', { services: this.services.urls });
  }
}

export type { StepOutcome };
