import type { StoreTarget } from '../store/sql/openSqlDatabase.js';
import type { Config } from '../../contract/index.js';
import type { Clock } from '../clock.js';
import type { CheckRunner, PlanFactory, ServiceHost } from '../engine/ports.js';
import type { TaskEngine } from '../engine/taskEngine.js';
import type { UserQuestions } from '../engine/userQuestions.js';
import type { EventBus } from '../gateway/eventBus.js';
import type { Hooks } from '../hooks/hooks.js';
import type { HookProcessRunner } from '../hooks/ports.js';
import type { ApprovalBroker } from '../policy/approvalBroker.js';
import type { PolicyGate } from '../policy/gate.js';
import type { SecretStore } from '../secrets/secretStore.js';
import type { SkillActivations } from '../skills/activations.js';
import type { Store } from '../store/store.js';
import type { TokenRepo } from '../store/tokenRepo.js';
import type { TaskService } from '../tasks/taskService.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Redactor } from '../trace/redactor.js';
import type { TaskTelemetry, TelemetryOptions } from '../trace/telemetry/taskTelemetry.js';
import type { TraceLog } from '../trace/traceLog.js';
import type { Dispatcher } from '../gateway/dispatcher.js';
import type { Chain } from './chain.js';
import type { ConfigSource } from './configSource.js';
import type { WorkerLease } from './workerLease.js';

/** What an entry point (CLI, Electron main, tests) gives to open the runtime core. */
export interface CoreOptions {
  home: string;
  /** The config the process starts with (`<home>/config.json` as read at start). */
  config: Config;
  /** Where later reads of the config come from; default: `<home>/config.json`, re-read when it changes. */
  configSource?: ConfigSource;
  /**
   * A PostgreSQL store, already migrated (`openRuntime` does it); default: the SQLite file in
   * `home`, migrated at open.
   */
  storeTarget?: Extract<StoreTarget, { kind: 'postgres' }>;
  clock?: Clock;
  /** Starts playbook services (child processes); absent → playbooks with services are refused at run. */
  services?: ServiceHost;
  pid?: number;
  /** How long a worker's heartbeat holds its leases (default 15 s). */
  leaseMs?: number;
  pollMs?: number;
  retryBackoffMs?: number;
  version?: string;
  loopThreshold?: number;
  /** Where secrets live; `${secret:name}` in tool arguments reads them (with host bindings under `home`). */
  secrets?: SecretStore;
  /** OpenTelemetry export (GenAI spans per task, step and model call); absent: no spans are made. */
  telemetry?: TelemetryOptions;
  /** Runs hook commands (child processes); without it the config's `hooks` never run. */
  hookRunner?: HookProcessRunner;
  /**
   * False in a gateway that runs no tasks (`serve --no-worker`): a task it would start goes to
   * the shared queue, where a worker (`agent-desk worker`) takes it. Default true.
   */
  runsTasks?: boolean;
}

/**
 * The narrow core every part of the runtime is built on: one store under `home`, the event bus,
 * the trace, the tool registry, the policy gate and approvals, the task engine and the one
 * task-creation service. Feature modules receive it (or a `Pick` of it) and contribute tools,
 * plan layers, check layers and RPC handlers. See docs/architecture.md, "The core".
 */
export interface RuntimeCore {
  readonly home: string;
  readonly version: string;
  /** This process as a worker: the lease on the runs and queue entries it owns (docs/architecture.md, "Workers and leases"). */
  readonly lease: WorkerLease;
  readonly clock: Clock;
  readonly startedAt: string;
  readonly config: ConfigSource;
  readonly store: Store;
  /**
   * Which store this is, for things shared through it outside the database (desktop containers on
   * a Docker engine): the data folder for the embedded file, `postgres://host:port/db` for a server.
   */
  readonly storeName: string;
  readonly bus: EventBus;
  /** Every value written down or shown to a model passes it: no known secret leaves in clear. */
  readonly redactor: Redactor;
  readonly trace: TraceLog;
  readonly registry: ToolRegistry;
  /** How a task's plan is built; modules wrap it (goals, replay). */
  readonly plans: Chain<PlanFactory>;
  /** How acceptance checks run; modules wrap it (checks inside the task's desktop). */
  readonly checks: Chain<CheckRunner>;
  /** Decides every tool call (agent allowlists, policy profiles, rules, defaults). */
  readonly gate: PolicyGate;
  readonly approvals: ApprovalBroker;
  readonly engine: TaskEngine;
  /** The one way a task comes to exist (RPC, CLI, cron, delegation, eval, bench). */
  readonly tasks: TaskService;
  /** Questions tools ask mid-call (MCP elicitation), waiting for `tasks.respond`. */
  readonly questions: UserQuestions;
  /** The skills each task has in use (read by `skills.read`); the gate narrows calls by them. */
  readonly skills: SkillActivations;
  /** Revocable gateway tokens with chosen scopes (transports authenticate by them). */
  readonly tokens: TokenRepo;
  /** The config's hooks (when the entry point wires a runner for them). */
  readonly hooks: Hooks | undefined;
  /** Spans of the tasks running here, when telemetry is on. */
  readonly telemetry: TaskTelemetry | undefined;
  /** The secret store, when the entry point gave one. */
  readonly secrets: SecretStore | undefined;
}

/**
 * A runtime as a caller holds it once assembled: the core, its method table and how it closes.
 * What a part that opens runtimes of its own receives (eval, the security suite), so it never
 * names the assembled type.
 */
export interface RuntimeHandle extends RuntimeCore {
  readonly dispatcher: Dispatcher;
  close(): Promise<void>;
}
