import type { Clock } from '../clock.js';
import type { Hooks } from '../hooks/hooks.js';
import type { ApprovalBroker } from '../policy/approvalBroker.js';
import type { PolicyGate } from '../policy/gate.js';
import type { SecretSource } from '../secrets/secretRefs.js';
import type { Store } from '../store/store.js';
import type { ToolRouter } from '../tools/router.js';
import type { Redactor } from '../trace/redactor.js';
import type { TraceLog } from '../trace/traceLog.js';
import type { CheckRunner, Emit, PlanFactory, ServiceHost } from './ports.js';
import type { SpendGuard } from './spendGuard.js';
import type { UserQuestions } from './userQuestions.js';

/** Everything the engine is wired with; entry points build it, tests build it with real parts. */
export interface EngineDeps {
  store: Store;
  trace: TraceLog;
  redactor: Redactor;
  clock: Clock;
  router: ToolRouter;
  gate: PolicyGate;
  approvals: ApprovalBroker;
  runChecks: CheckRunner;
  plans: PlanFactory;
  services?: ServiceHost;
  emit: Emit;
  /** This process's runner lease: whose runs and queue entries are whose, across processes and machines. */
  lease: RunnerLease;
  /** How often a waiting runner looks for decisions made by other processes. */
  pollMs: number;
  /** First retry delay; doubles per attempt. */
  retryBackoffMs: number;
  /** Same call + same result this many times in a row stops the task. */
  loopThreshold: number;
  /** The per-person and per-team spend limits (config `budgets`); without it no run reads the ledger. */
  spend?: SpendGuard;
  /** Where questions tools ask mid-call wait for `tasks.respond` (without it, tools cannot ask). */
  questions?: UserQuestions;
  /** Values and host bindings for `${secret:name}` in tool arguments (without it, references are refused). */
  secrets?: SecretSource;
  /** Runs a step's tool calls inside a scope: telemetry's step span, so what the tool sends carries the trace. */
  toolScope?: ToolScope;
  /** Configured hooks (PreToolUse / PostToolUse run around steps); without it no hook runs. */
  hooks?: Hooks;
  /**
   * Set in a process that runs no tasks (`serve --no-worker`): a run it would start is handed to
   * the shared queue instead, for a worker process to take.
   */
  handOff?: (taskId: string) => Promise<void>;
}

/** Wraps the run of one step's tool call(s). */
export type ToolScope = <T>(call: { taskId: string; stepId: string; tool: string; tier: string }, run: () => Promise<T>) => Promise<T>;

/**
 * This process as an owner of task runs (core/workerLease.ts): a worker row with a heartbeat. Its
 * leases hold while the heartbeat is fresh; on its own machine a worker whose process is gone is
 * reaped at once. See docs/architecture.md, "Workers and leases".
 */
export interface RunnerLease {
  /** The worker id written as owner now (a new one after a lost lease). */
  readonly id: string;
  /** Heartbeats at or after this ISO time are live. */
  freshSince(): string;
  /** The newest planner-state version this process reads: it takes no task saved by a newer one. */
  readonly plannerVersion: number;
  /** Registers this worker (once) and frees the leases of dead workers: local ones whose process is gone, stale ones anywhere. */
  reap(): Promise<void>;
  /** False while the heartbeat cannot reach the store: claim nothing new meanwhile. */
  healthy(): boolean;
}

/** True when a process with this pid exists. */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
