import path from 'node:path';
import type { EventPayloads } from '../../contract/index.js';
import { agentPolicyLookup } from '../agents/policyLookup.js';
import { isoAt, systemClock, type Clock } from '../clock.js';
import type { EngineDeps } from '../engine/engineDeps.js';
import type { CheckRunner, PlanFactory } from '../engine/ports.js';
import { LocalRuns } from '../engine/localRuns.js';
import { isTerminal } from '../engine/stateMachine.js';
import { TaskEngine } from '../engine/taskEngine.js';
import { UserQuestions } from '../engine/userQuestions.js';
import { SpendGuard } from '../engine/spendGuard.js';
import { createEventBus, type EventBus } from '../gateway/eventBus.js';
import { Hooks } from '../hooks/hooks.js';
import type { HookProcessRunner } from '../hooks/ports.js';
import { PLANNER_STATE_VERSION } from '../planning/llm/plannerState.js';
import { playbookPlanFactory } from '../planning/playbook/taskPlan.js';
import { ApprovalBroker } from '../policy/approvalBroker.js';
import { PolicyGate } from '../policy/gate.js';
import { boundSecrets } from '../secrets/secretRefs.js';
import { SecretHostBindings } from '../secrets/secretHosts.js';
import { secretFeed } from '../secrets/secretStore.js';
import { SkillActivations } from '../skills/activations.js';
import { skillsReadTool } from '../skills/skillsReadTool.js';
import { AgentRepo } from '../store/agentRepo.js';
import { PostgresDatabase } from '../store/sql/postgresAdapter.js';
import { SQLITE_FILE } from '../store/sql/openSqlDatabase.js';
import { Store } from '../store/store.js';
import { TaskQueueRepo } from '../store/taskQueueRepo.js';
import { TokenRepo } from '../store/tokenRepo.js';
import { TaskService } from '../tasks/taskService.js';
import { builtinTools } from '../tools/builtin/index.js';
import { ToolRegistry } from '../tools/registry.js';
import { ToolRouter } from '../tools/router.js';
import { Redactor } from '../trace/redactor.js';
import { TaskTelemetry } from '../trace/telemetry/taskTelemetry.js';
import { TraceLog } from '../trace/traceLog.js';
import { gatedCheckRunner } from '../verify/checkGate.js';
import { runChecks } from '../verify/index.js';
import { Chain } from './chain.js';
import { WorkerLease } from './workerLease.js';
import { fileConfigSource } from './configSource.js';
import type { CoreOptions, RuntimeCore } from './runtimeCore.js';

/**
 * Opens the core over its store (the SQLite file under `home`, or a migrated PostgreSQL): the parts every module builds on, wired
 * once. Modules are applied by `assembleRuntime`; nothing here knows them.
 */
export function openRuntimeCore(options: CoreOptions): RuntimeCore {
  const clock = options.clock ?? systemClock;
  const redactor = new Redactor();
  // Every value the store writes passes the redactor: no known secret reaches the disk.
  // Values another process stores (the CLI while `serve` runs) are learned too, before any write.
  if (options.secrets) redactor.follow(secretFeed(options.secrets));
  const store = options.storeTarget
    ? new Store(new PostgresDatabase(options.storeTarget), redactor, options.home)
    : Store.open(path.join(options.home, SQLITE_FILE), options.config.durability, redactor);
  const bus = createEventBus();
  const lease = new WorkerLease(store.sql, {
    plannerVersion: PLANNER_STATE_VERSION,
    ...(options.leaseMs !== undefined && { leaseMs: options.leaseMs }),
    ...(options.pid !== undefined && { pid: options.pid }),
    // Another worker took what this one held (its heartbeat came too late): its runs stop here.
    onLost: (reason) => engine.abandonRuns(reason),
    onHealth: (ok, error) =>
      process.emitWarning(
        ok
          ? 'worker lease: the store answers again; claiming resumes'
          : `worker lease: cannot renew the heartbeat (${error instanceof Error ? error.message : String(error)}); claiming nothing until the store answers`,
      ),
  });
  const registry = new ToolRegistry();
  const skills = new SkillActivations(store.sql);
  for (const tool of [...builtinTools(), skillsReadTool({ home: options.home, activations: skills })]) registry.register(tool);
  const trace = new TraceLog(store.trace, redactor, clock);
  const emit: EngineDeps['emit'] = (name, payload) => bus.emit(name, payload);
  const approvals = new ApprovalBroker(store, trace, redactor, clock, emit);
  // Grants are stored with redacted subjects, so look them up the same way.
  const gate = new PolicyGate(
    options.config.policy,
    { findGrant: (q) => store.grants.find({ ...q, subject: redactor.text(q.subject) }) },
    agentPolicyLookup(store.sql),
    skills,
  );
  // Model planners are offered only the tools a task's agent may use.
  registry.restrictPerTask((task) => gate.toolFilter(task));
  const plans = new Chain<PlanFactory>(playbookPlanFactory(registry));
  const checks = new Chain<CheckRunner>(runChecks);
  const questions = new UserQuestions();
  const runs = new LocalRuns(store);
  const telemetry = options.telemetry && new TaskTelemetry(options.telemetry, redactor, clock, (id) => runs.isRunningHere(id));
  telemetry?.follow(bus);
  const hooks = options.hookRunner && openHooks(options, options.hookRunner, { clock, redactor, trace, store, bus, runs });
  const deps: EngineDeps = {
    store,
    trace,
    redactor,
    clock,
    router: new ToolRouter(registry),
    gate,
    approvals,
    // Every runner, the desktop's included, sits behind the network gate for URL checks.
    runChecks: gatedCheckRunner(
      (list, ctx) => checks.current(list, ctx),
      () => gate.configuredNetworkAllow(),
    ),
    plans: (task, parsed) => plans.current(task, parsed),
    ...(options.services && { services: options.services }),
    emit,
    lease,
    pollMs: options.pollMs ?? 250,
    retryBackoffMs: options.retryBackoffMs ?? 500,
    loopThreshold: options.loopThreshold ?? 3,
    spend: new SpendGuard(options.config.budgets),
    questions,
    ...(options.secrets && { secrets: boundSecrets(options.secrets, new SecretHostBindings(options.home)) }),
    ...(telemetry && { toolScope: (call, run) => telemetry.runTool(call, run) }),
    ...(hooks && { hooks }),
    ...(options.runsTasks === false && { handOff: queueHandOff(store, clock) }),
  };
  const engine = new TaskEngine(deps, path.join(options.home, 'workspaces'), runs);
  return {
    home: options.home,
    version: options.version ?? '0.0.0',
    lease,
    clock,
    startedAt: new Date(clock.now()).toISOString(),
    config: options.configSource ?? fileConfigSource(options.home, options.config),
    store,
    storeName: options.storeTarget ? storeNameOf(options.storeTarget.url) : options.home,
    bus,
    redactor,
    trace,
    registry,
    plans,
    checks,
    gate,
    approvals,
    engine,
    tasks: new TaskService({ engine, configBudget: options.config.budget, agents: new AgentRepo(store.sql), registry }),
    questions,
    skills,
    tokens: new TokenRepo(store.sql),
    hooks,
    telemetry,
    secrets: options.secrets,
  };
}

/**
 * Hooks write through the task's run when it runs here (in order with its steps); TaskEnd and
 * Notification follow the event bus, so every way a task ends or asks is seen.
 */
function openHooks(
  options: CoreOptions,
  runner: HookProcessRunner,
  parts: { clock: Clock; redactor: Redactor; trace: TraceLog; store: Store; bus: EventBus; runs: LocalRuns },
): Hooks {
  const { trace, store, bus } = parts;
  const hooks = new Hooks(options.config.hooks, {
    runner,
    redactor: parts.redactor,
    clock: parts.clock,
    trace: (taskId, type, data, tx) => trace.append(taskId, type, data, undefined, tx.trace),
    addContext: (taskId, text, at, tx) => tx.events.append(taskId, 'hook.context', text, at),
    record: (taskId, write) => parts.runs.writeWithRun(taskId, write, false),
  });
  bus.on({ events: ['task.updated', 'approval.requested'] }, (frame) => {
    if (frame.event === 'task.updated') {
      const task = frame.data as EventPayloads['task.updated'];
      hooks.onTaskUpdated(task, isTerminal(task.state));
      return;
    }
    const approval = frame.data as EventPayloads['approval.requested'];
    void store.tasks
      .get(approval.taskId)
      .then((task) => task && hooks.onApprovalRequested(task, approval))
      .catch((error: unknown) => process.emitWarning(`Notification hook: ${(error as Error).message}`));
  });
  return hooks;
}

/**
 * A gateway that runs no tasks puts the ones it would start on the shared queue (a finished
 * entry — a run that detached to wait — goes back to pending); a worker's queue takes them.
 */
function queueHandOff(store: Store, clock: Clock): (taskId: string) => Promise<void> {
  return (taskId) => new TaskQueueRepo(store.sql).handOff(taskId, isoAt(clock.now()));
}

/** A PostgreSQL store by server and database (no user, no password, no options): the same for every worker that names it so. */
function storeNameOf(url: string): string {
  const parsed = new URL(url);
  return `postgres://${parsed.host}${parsed.pathname}`;
}
