import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ulid } from 'ulid';
import {
  BudgetSchema,
  type Actor,
  type Budget,
  type PlanSource,
  type Playbook,
  type SandboxMode,
  type Step,
  type Task,
  type TaskEvent,
  type UncertainResolution,
} from '../../contract/index.js';
import { isoAt } from '../clock.js';
import { AgentDeskError } from '../errors.js';
import { emptyUsage } from './budgets.js';
import type { EngineDeps } from './engineDeps.js';
import { LocalRuns } from './localRuns.js';
import type { TaskPlan } from './ports.js';
import type { Repos } from '../store/store.js';
import type { Write } from './commitQueue.js';
import { isTerminal } from './stateMachine.js';
import { refusedClaim } from './leaseRefusal.js';
import { TaskRun, type RunOptions } from './taskRun.js';
import { inTimeOrder } from './userSteps.js';

/** What a caller gives to create a task. */
export interface TaskSpec {
  title?: string;
  plan: PlanSource;
  /** Non-secret input values (persisted). */
  inputs: Record<string, unknown>;
  /** Secret input names; their values live only in memory and are redacted everywhere. */
  secretNames?: string[];
  workspace?: string;
  budget?: Partial<Budget>;
  agent?: string;
  policyProfile?: string;
  sandbox?: SandboxMode;
  /** Who starts it: an operator controls their own tasks; four-eyes rules keep them from approving its payments. */
  owner?: Actor;
  /** The playbook as its creator parsed it (not stored): the plan reuses it instead of parsing again. */
  playbook?: Playbook;
  /** The RPC request that creates it: its first answer is recorded in the task's own transaction. */
  idempotency?: { method: string; key: string; paramsDigest: string };
}

/** Creates, runs, pauses, resumes and cancels tasks; recovers interrupted ones at start-up. */
export class TaskEngine {
  /** Plans built at creation, reused by the first run (parsing a big playbook twice is wasted work). */
  private readonly plans = new Map<string, TaskPlan>();
  /** Tasks whose pause or cancel a short run applies now (no runner held them). */
  private readonly controlling = new Set<string>();

  constructor(
    private readonly deps: EngineDeps,
    private readonly workspacesDir: string,
    /** The runs of this process; made first when parts the engine is built with ask about them. */
    private readonly runs: LocalRuns = new LocalRuns(deps.store),
  ) {}

  /**
   * Validates the plan and records a queued task (nothing runs yet). `tx`: a transaction of the
   * caller's the task joins (its queue entry, a cron run, a delegation record land with it).
   */
  async create(spec: TaskSpec, tx?: Repos): Promise<Task> {
    const id = `tsk_${ulid()}`;
    const now = isoAt(this.deps.clock.now());
    const workspace = path.resolve(spec.workspace ?? path.join(this.workspacesDir, id));
    const inputs = { ...spec.inputs };
    for (const name of spec.secretNames ?? []) inputs[name] = `[secret:${name}]`;
    const task: Task = {
      id,
      title: spec.title ?? 'untitled task',
      state: 'queued',
      plan: spec.plan,
      inputs: this.deps.redactor.value(inputs),
      workspace,
      budget: BudgetSchema.parse(spec.budget ?? {}),
      usage: emptyUsage(),
      checks: [],
      createdAt: now,
      updatedAt: now,
      ...(spec.agent !== undefined && { agent: spec.agent }),
      ...(spec.policyProfile !== undefined && { policyProfile: spec.policyProfile }),
      ...(spec.sandbox !== undefined && { sandbox: spec.sandbox }),
      ...(spec.owner !== undefined && { owner: spec.owner }),
    };
    await this.deps.gate.checkTask(task, tx?.sql); // an unknown agent or policy profile is refused before anything is stored
    // Inside a caller's transaction the plan is built by the first run instead: building a goal's
    // plan reads the store (its agent's tools), which would wait on that very transaction. The
    // caller built the spec (and parsed its playbook) before it began.
    const plan = tx ? undefined : await this.deps.plans(task, spec.playbook); // throws invalid_playbook before anything is stored
    mkdirSync(workspace, { recursive: true });
    const record = async (repos: Repos) => {
      await this.record(task, spec, repos);
      repos.afterCommit(() => this.deps.emit('task.updated', task));
    };
    await (tx ? record(tx) : this.deps.store.transaction(record));
    if (plan) this.plans.set(id, plan);
    return task;
  }

  private async record(task: Task, spec: TaskSpec, tx: Repos): Promise<void> {
    await tx.tasks.insert(task);
    const request = spec.idempotency;
    // A retry after a crash finds this answer instead of creating (and running) a second task.
    if (request && !(await tx.idempotency.claim(request.method, request.key, request.paramsDigest, task))) {
      const message = `idempotency key '${request.key}' was used by a concurrent ${request.method}; retry to get its answer`;
      throw new AgentDeskError('conflict', message, { method: request.method, idempotencyKey: request.key });
    }
    const data = { title: task.title, plan: task.plan.kind, workspace: task.workspace, budget: task.budget, inputs: task.inputs };
    await this.deps.trace.append(task.id, 'task.created', data, undefined, tx.trace);
  }

  /** Runs a task in this process until it ends or waits; concurrent calls for one task share the run. */
  async run(taskId: string, options: RunOptions = {}): Promise<Task> {
    const active = this.runs.get(taskId);
    if (active) throw new AgentDeskError('conflict', `task ${taskId} is already running in this process`);
    if (options.secrets) for (const [name, value] of Object.entries(options.secrets)) this.deps.redactor.add(name, value);
    const plan = this.plans.get(taskId);
    this.plans.delete(taskId);
    const run = new TaskRun(this.deps, taskId, options, plan);
    this.runs.add(taskId, run);
    try {
      return await run.run();
    } finally {
      this.runs.remove(taskId);
    }
  }

  /**
   * Starts a run in the background (gateway use); errors end up in the task state. In a process
   * that runs no tasks, the task goes to the shared queue for a worker instead.
   */
  async start(taskId: string, options: RunOptions = {}): Promise<void> {
    if (this.deps.handOff) {
      this.assertCanHandOff(options);
      return this.deps.handOff(taskId);
    }
    if (this.runs.isRunningHere(taskId)) return;
    void this.run(taskId, options).catch(() => undefined);
  }

  /** False in a gateway that only hands tasks to workers (`serve --no-worker`). */
  get runsTasks(): boolean {
    return this.deps.handOff === undefined;
  }

  /**
   * What lives only in this process's memory cannot travel to a worker: secret input values
   * (never stored) and the resolution of an uncertain step. Checked before anything is recorded.
   */
  assertCanHandOff(options: Pick<RunOptions, 'secrets' | 'resolution'>): void {
    if (this.runsTasks) return;
    const what =
      options.secrets && Object.keys(options.secrets).length > 0
        ? 'secret inputs (their values are never stored, so a worker cannot get them)'
        : options.resolution !== undefined
          ? 'the resolution of an uncertain step'
          : undefined;
    if (what === undefined) return;
    throw new AgentDeskError(
      'invalid_request',
      `this gateway runs no tasks (serve --no-worker): a run with ${what} must start in a process that runs tasks — agent-desk run, or serve without --no-worker`,
    );
  }

  isRunningHere(taskId: string): boolean {
    return this.runs.isRunningHere(taskId);
  }

  /** True while the task runs here or its run here ended less than `ms` ago. */
  ranHereWithin(taskId: string, ms: number): boolean {
    return this.runs.ranHereWithin(taskId, ms);
  }

  /** A write about a task, joined to its run's next commit when it runs here (see LocalRuns). */
  writeWithRun(taskId: string, write: Write, lazy = true): Promise<void> {
    return this.runs.writeWithRun(taskId, write, lazy);
  }

  async get(taskId: string): Promise<Task> {
    const task = await this.deps.store.tasks.get(taskId);
    if (!task) throw new AgentDeskError('not_found', `no task ${taskId}`);
    return task;
  }

  async steps(taskId: string): Promise<Step[]> {
    await this.get(taskId);
    return inTimeOrder(await this.deps.store.steps.forTask(taskId));
  }

  /** The task's conversation as people read it: messages, model text, reasoning summaries, the answer. */
  async events(taskId: string): Promise<TaskEvent[]> {
    await this.get(taskId);
    return this.deps.store.events.list(taskId);
  }

  /** Asks the runner to pause after the current step (or pauses a waiting task at once). */
  async pause(taskId: string): Promise<Task> {
    const task = await this.get(taskId);
    if (isTerminal(task.state)) throw new AgentDeskError('conflict', `task ${taskId} is already ${task.state}`);
    if (task.state === 'paused') return task;
    await this.deps.store.tasks.requestControl(taskId, 'pause', 'paused by the user');
    this.runs.get(taskId)?.notifyControl();
    if (!this.runs.isRunningHere(taskId) && !(await this.ownedElsewhere(taskId))) return this.applyControlNow(taskId);
    return task;
  }

  /** Cancels a task; an in-flight tool call in this process is aborted. */
  async cancel(taskId: string, reason = 'cancelled by the user'): Promise<Task> {
    const task = await this.get(taskId);
    if (isTerminal(task.state)) throw new AgentDeskError('conflict', `task ${taskId} is already ${task.state}`);
    await this.deps.store.tasks.requestControl(taskId, 'cancel', reason);
    const run = this.runs.get(taskId);
    run?.notifyControl();
    if (run) run.abort.abort(new AgentDeskError('conflict', reason));
    else if (!(await this.ownedElsewhere(taskId))) return this.applyControlNow(taskId);
    return this.get(taskId);
  }

  /** Resumes a paused, waiting or interrupted task in the background. */
  async resume(taskId: string, resolution?: UncertainResolution, options: RunOptions = {}): Promise<Task> {
    const task = await this.get(taskId);
    if (isTerminal(task.state)) throw new AgentDeskError('conflict', `task ${taskId} is already ${task.state}`);
    if (await this.ownedElsewhere(taskId)) throw await refusedClaim(this.deps, taskId);
    this.assertCanHandOff({ ...options, ...(resolution && { resolution }) });
    await this.deps.store.tasks.requestControl(taskId, null);
    await this.start(taskId, { ...options, ...(resolution && { resolution }) });
    return this.get(taskId);
  }

  /**
   * Sends a goal task a message: stored as a task event, which its model planner reads as a user
   * turn of the next model request (also after a restart), and traced. Returns the event's seq.
   * UserPromptSubmit hooks see it first: one may refuse it (`forbidden`, nothing stored) or add
   * context, stored right after it.
   */
  async message(taskId: string, text: string): Promise<number> {
    const task = await this.messageable(taskId);
    const hooked = this.deps.hooks ? await this.deps.hooks.userPrompt(task, text, 'message') : {};
    if (hooked.blocked) throw new AgentDeskError('forbidden', `the message was blocked by a ${hooked.blocked}`);
    await this.messageable(taskId); // it may have ended while the hook ran
    const at = isoAt(this.deps.clock.now());
    return this.deps.store.transaction(async (tx) => {
      const seq = await tx.events.append(taskId, 'user.message', text, at);
      await this.deps.trace.append(taskId, 'user.message', { text, eventSeq: seq }, undefined, tx.trace);
      if (hooked.context) await tx.events.append(taskId, 'hook.context', hooked.context, at);
      return seq;
    });
  }

  private async messageable(taskId: string): Promise<Task> {
    const task = await this.get(taskId);
    if (isTerminal(task.state))
      throw new AgentDeskError('conflict', `task ${taskId} is already ${task.state}: no planner will read a message`);
    if (task.plan.kind !== 'goal') {
      throw new AgentDeskError(
        'conflict',
        `task ${taskId} runs a playbook, which reads no messages; only goal tasks have a model to talk to`,
      );
    }
    return task;
  }

  /**
   * At start-up: restarts tasks that were running when the process died, and re-awaits pending
   * approvals. Queued (never started), paused and waiting-for-user tasks stay until a person acts.
   */
  async recover(options: RunOptions = {}): Promise<string[]> {
    const resumable = await this.takeable(false);
    for (const id of resumable) await this.start(id, options);
    return resumable;
  }

  /**
   * While running: takes over the runs of workers that died (a worker killed mid-task, a machine
   * that went away) — tasks still owned by a worker that is no longer live. Detached waits (no
   * owner) are left to the decision that wakes them. The same exactly-once rules as a restart
   * apply: the run resumes from its steps, an uncertain one held.
   */
  async recoverOrphans(options: RunOptions = {}): Promise<string[]> {
    const orphaned = await this.takeable(true);
    for (const id of orphaned) await this.start(id, options);
    return orphaned;
  }

  /** Stops every run in this process at once: its worker lost its leases, and another worker goes on with them. */
  abandonRuns(reason: string): void {
    for (const run of this.runs.all()) run.abort.abort(new AgentDeskError('conflict', reason));
  }

  private async takeable(orphansOnly: boolean): Promise<string[]> {
    const { lease, store } = this.deps;
    if (!lease.healthy()) return [];
    await lease.reap();
    const me = { id: lease.id, fresh: lease.freshSince(), plannerVersion: lease.plannerVersion };
    const tasks = await store.tasks.takeable(['planning', 'running', 'retrying', 'waiting_approval'], me, orphansOnly);
    return tasks.map((t) => t.id).filter((id) => !this.runs.isRunningHere(id) && !this.controlling.has(id));
  }

  /** Waits for every run started in this process (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.runs.size > 0) await new Promise((r) => setTimeout(r, 10));
  }

  private async ownedElsewhere(taskId: string): Promise<boolean> {
    const { lease, store } = this.deps;
    await lease.reap();
    const owner = await store.tasks.liveOwner(taskId, lease.freshSince());
    return owner !== undefined && owner !== lease.id;
  }

  /** A task nobody is running: apply pause/cancel directly through a short run. */
  private async applyControlNow(taskId: string): Promise<Task> {
    const run = new TaskRun(this.deps, taskId, {});
    // Noted while it holds the lease, so a takeover in this process never starts a run beside it
    // (not listed as a run: telemetry and hooks see no run here).
    this.controlling.add(taskId);
    try {
      return await run.applyControlOnly();
    } finally {
      this.controlling.delete(taskId);
    }
  }
}
