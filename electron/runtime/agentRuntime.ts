import path from 'node:path';
import type { Config, EventPayloads } from '../contract/index.js';
import { systemClock, type Clock } from './clock.js';
import { agentPolicyLookup } from './agents/policyLookup.js';
import { processIsAlive, type EngineDeps } from './engine/engineDeps.js';
import type { CheckRunner, PlanFactory, ServiceHost } from './engine/ports.js';
import { TaskEngine } from './engine/taskEngine.js';
import { createDispatcher, type Dispatcher } from './gateway/dispatcher.js';
import { createEventBus, type EventBus } from './gateway/eventBus.js';
import { coreHandlers } from './gateway/coreHandlers.js';
import { recordHandlers } from './gateway/recordHandlers.js';
import { questionHandlers } from './gateway/questionHandlers.js';
import { tokenHandlers } from './gateway/tokenHandlers.js';
import { skillHandlers } from './gateway/skillHandlers.js';
import { grantHandlers } from './gateway/grantHandlers.js';
import { TokenRepo } from './store/tokenRepo.js';
import { UserQuestions } from './engine/userQuestions.js';
import type { Handlers } from './gateway/handlers.js';
import { Hooks } from './hooks/hooks.js';
import type { HookProcessRunner } from './hooks/ports.js';
import { isTerminal } from './engine/stateMachine.js';
import { playbookPlanFactory } from './planning/playbook/taskPlan.js';
import { ApprovalBroker } from './policy/approvalBroker.js';
import { PolicyGate } from './policy/gate.js';
import { redactedLog } from './secrets/redactedLog.js';
import { boundSecrets } from './secrets/secretRefs.js';
import { SecretHostBindings } from './secrets/secretHosts.js';
import { secretFeed, type SecretStore } from './secrets/secretStore.js';
import { SkillActivations } from './skills/activations.js';
import { skillsReadTool } from './skills/skillsReadTool.js';
import { Store } from './store/store.js';
import { builtinTools } from './tools/builtin/index.js';
import { ToolRegistry } from './tools/registry.js';
import { ToolRouter } from './tools/router.js';
import type { AnyTool } from './tools/types.js';
import { Redactor } from './trace/redactor.js';
import { TraceLog } from './trace/traceLog.js';
import { TaskTelemetry, type TelemetryOptions } from './trace/telemetry/taskTelemetry.js';
import { runChecks } from './verify/index.js';
import { gatedCheckRunner } from './verify/checkGate.js';

/** What an entry point (CLI, Electron main, tests) provides to open a runtime. */
export interface RuntimeOptions {
  home: string;
  config: Config;
  clock?: Clock;
  /** Starts playbook services (child processes); absent → playbooks with services are refused at run. */
  services?: ServiceHost;
  pid?: number;
  pollMs?: number;
  retryBackoffMs?: number;
  version?: string;
  /** Extra tools (capability adapters such as MCP or browser tools register here). */
  tools?: readonly AnyTool[];
  /** Overrides how plans are built, e.g. to add model planners; receives the playbook factory. */
  plans?: (playbooks: PlanFactory) => PlanFactory;
  loopThreshold?: number;
  /** More method handlers (MCP, scheduler, …), merged over the core ones. */
  handlers?: readonly ((rt: AgentRuntime) => Handlers)[];
  /** Released by `close()` after in-process runs end (MCP connections, browsers, …). */
  onClose?: readonly (() => Promise<void> | void)[];
  /** Finished by `stop()`, when a server leaves with its runs in flight (a waiting task's page still being saved, …). */
  onStop?: readonly (() => Promise<void> | void)[];
  /** Replaces the acceptance-check runner (e.g. to run sandbox checks inside the task's container). */
  runChecks?: CheckRunner;
  /** Where secrets live; `${secret:name}` in tool arguments reads them (with host bindings under `home`). */
  secrets?: SecretStore;
  /** OpenTelemetry export (GenAI spans per task, step and model call); absent: no spans are made. */
  telemetry?: TelemetryOptions;
  /** Runs hook commands (child processes); without it the config's `hooks` never run. */
  hookRunner?: HookProcessRunner;
}

/**
 * The runtime core wired together: one SQLite store under `home`, the tool registry and router,
 * the policy gate and approval broker, the task engine, the event bus and the RPC dispatcher.
 */
export class AgentRuntime {
  readonly store: Store;
  readonly bus: EventBus;
  readonly registry: ToolRegistry;
  readonly redactor = new Redactor();
  readonly trace: TraceLog;
  readonly approvals: ApprovalBroker;
  /** Decides every tool call (agent allowlists, policy profiles, rules, defaults). */
  readonly gate: PolicyGate;
  readonly engine: TaskEngine;
  /** Questions tools ask mid-call (MCP elicitation), waiting for `tasks.respond`. */
  readonly questions = new UserQuestions();
  readonly dispatcher: Dispatcher;
  /** Revocable gateway tokens with chosen scopes (transports authenticate by them). */
  readonly tokens: TokenRepo;
  /** The config's hooks (when the entry point wires a runner for them). */
  readonly hooks: Hooks | undefined;
  readonly startedAt: string;
  /** Spans of the tasks running here, when telemetry is on (model providers wrap their calls in it). */
  readonly telemetry: TaskTelemetry | undefined;
  /** The skills each task has in use (read by `skills.read`); the gate narrows calls by them. */
  readonly skills: SkillActivations;

  constructor(readonly options: RuntimeOptions) {
    const clock = options.clock ?? systemClock;
    this.startedAt = new Date(clock.now()).toISOString();
    // Every value the store writes passes the redactor: no known secret reaches the disk.
    // Values another process stores (the CLI while `serve` runs) are learned too, before any write.
    if (options.secrets) this.redactor.follow(secretFeed(options.secrets));
    this.store = Store.open(path.join(options.home, 'agent-desk.db'), options.config.durability, this.redactor);
    this.bus = createEventBus();
    this.tokens = new TokenRepo(this.store.db);
    const telemetry =
      options.telemetry && new TaskTelemetry(options.telemetry, this.redactor, clock, (id) => this.engine.isRunningHere(id));
    telemetry?.follow(this.bus);
    this.telemetry = telemetry;
    this.registry = new ToolRegistry();
    this.skills = new SkillActivations(this.store.db);
    const skillsTool = skillsReadTool({ home: options.home, activations: this.skills });
    for (const tool of [...builtinTools(), skillsTool, ...(options.tools ?? [])]) this.registry.register(tool);
    this.trace = new TraceLog(this.store.trace, this.redactor, clock);
    const emit: EngineDeps['emit'] = (name, payload) => this.bus.emit(name, payload);
    this.approvals = new ApprovalBroker(this.store, this.trace, this.redactor, clock, emit);
    // Grants are stored with redacted subjects, so look them up the same way.
    const gate = new PolicyGate(
      options.config.policy,
      { findGrant: (q) => this.store.grants.find({ ...q, subject: this.redactor.text(q.subject) }) },
      agentPolicyLookup(this.store.db),
      this.skills,
    );
    this.gate = gate;
    this.hooks = options.hookRunner && this.openHooks(options.hookRunner, clock);
    // Model planners are offered only the tools a task's agent may use.
    this.registry.restrictPerTask((task) => gate.toolFilter(task));
    const deps: EngineDeps = {
      store: this.store,
      trace: this.trace,
      redactor: this.redactor,
      clock,
      router: new ToolRouter(this.registry),
      gate,
      approvals: this.approvals,
      // Every runner, the desktop's included, sits behind the network gate for URL checks.
      runChecks: gatedCheckRunner(options.runChecks ?? runChecks, () => gate.configuredNetworkAllow()),
      plans: options.plans ? options.plans(playbookPlanFactory(this.registry)) : playbookPlanFactory(this.registry),
      ...(options.services && { services: options.services }),
      emit,
      pid: options.pid ?? process.pid,
      isAlive: processIsAlive,
      pollMs: options.pollMs ?? 250,
      retryBackoffMs: options.retryBackoffMs ?? 500,
      loopThreshold: options.loopThreshold ?? 3,
      questions: this.questions,
      ...(options.secrets && { secrets: boundSecrets(options.secrets, new SecretHostBindings(options.home)) }),
      ...(telemetry && { toolScope: (call, run) => telemetry.runTool(call, run) }),
      ...(this.hooks && { hooks: this.hooks }),
    };
    this.engine = new TaskEngine(deps, path.join(options.home, 'workspaces'));
    this.dispatcher = createDispatcher({
      handlers: Object.assign(
        coreHandlers(this),
        recordHandlers(this),
        questionHandlers(this),
        tokenHandlers(this.tokens, () => clock.now()),
        skillHandlers(this),
        grantHandlers(this.store.grants),
        ...(options.handlers ?? []).map((make) => make(this)),
      ),
      idempotency: this.store.idempotency,
      log: redactedLog(this.redactor),
    });
  }

  /**
   * Ends the spans of tasks still running or waiting here and sends them: for a process that
   * stops without `close()` (the gateway leaves its runs resumable).
   */
  async flushTelemetry(): Promise<void> {
    this.telemetry?.endAll();
    await this.options.telemetry?.flush?.();
  }

  /**
   * A server stops without waiting for its runs (they stay resumable): what the next process
   * needs from this one is finished first — the pages of waiting tasks, their spans — then the
   * database closes.
   */
  async stop(): Promise<void> {
    for (const finish of this.options.onStop ?? []) await finish();
    await this.flushTelemetry();
    this.store.close();
  }

  /** Waits for in-process runs (and hooks still running), then closes the database. */
  async close(): Promise<void> {
    await this.engine.idle();
    await this.hooks?.idle();
    // Tasks still waiting end their span here, before the exporter's last flush (an onClose).
    this.telemetry?.endAll();
    for (const release of this.options.onClose ?? []) await release();
    this.store.close();
  }

  /**
   * Hooks write through the task's run when it runs here (in order with its steps); TaskEnd and
   * Notification follow the event bus, so every way a task ends or asks is seen.
   */
  private openHooks(runner: HookProcessRunner, clock: Clock): Hooks {
    const hooks = new Hooks(this.options.config.hooks, {
      runner,
      redactor: this.redactor,
      clock,
      trace: (taskId, type, data) => void this.trace.append(taskId, type, data),
      addContext: (taskId, text, at) => void this.store.events.append(taskId, 'hook.context', text, at),
      record: (taskId, write) => this.engine.writeWithRun(taskId, write, false),
    });
    this.bus.on({ events: ['task.updated', 'approval.requested'] }, (frame) => {
      if (frame.event === 'task.updated') {
        const task = frame.data as EventPayloads['task.updated'];
        hooks.onTaskUpdated(task, isTerminal(task.state));
        return;
      }
      const approval = frame.data as EventPayloads['approval.requested'];
      const task = this.store.tasks.get(approval.taskId);
      if (task) hooks.onApprovalRequested(task, approval);
    });
    return hooks;
  }
}
