import type { PlaybookStep, Step, StepExpectation, Task } from '../../contract/index.js';
import type { Repos } from '../store/store.js';

/** What a planner sees when asked for the next step. */
export interface PlannerState {
  task: Task;
  /** Every recorded step of the task, oldest first. */
  steps: readonly Step[];
  /** The latest attempt per plan index (the runner keeps it current, so planners need not rescan). */
  latest?: ReadonlyMap<number, Step>;
  /** Inputs including secret values (held in memory only). */
  inputs: Readonly<Record<string, unknown>>;
  /** Facts the runtime provides to templates, e.g. service URLs. */
  env: Readonly<Record<string, unknown>>;
  /**
   * Queues a write into the run's next commit: what a planner saves (its conversation) lands in
   * the same transaction as the step it leads to, or with the transition that ends the run.
   */
  commit?: (write: (tx: Repos) => Promise<unknown>) => Promise<void>;
}

/** Token and cost usage of one planning call. */
export interface PlannerUsage {
  modelCalls: number;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
}

/** The planner's answer: the next tool call, done, or give up. */
export type PlannerDecision =
  | {
      type: 'call';
      /** Plan position; re-planning the same index after a restart must give the same call. */
      index: number;
      planStepId?: string;
      title?: string;
      tool?: string;
      capability?: string;
      args: Record<string, unknown>;
      expect: StepExpectation[];
      retries: number;
      /** A failed call is recorded and reported back to the planner instead of failing the task (model planners). */
      continueOnError?: boolean;
      /** A person's denial: `continue` records the step denied and asks the planner again (it reads why); default fails the task. */
      onDeny?: 'fail' | 'continue';
      /** Provider safety checks on this call: it runs only after a person approves (then they are acknowledged). */
      safetyChecks?: { id: string; code: string; message: string }[];
      usage?: PlannerUsage;
    }
  /** Calls a model made in one turn; the engine runs them concurrently when all are read-only. */
  | { type: 'batch'; calls: Extract<PlannerDecision, { type: 'call' }>[]; usage?: PlannerUsage }
  | { type: 'done'; usage?: PlannerUsage }
  | { type: 'fail'; reason: string; usage?: PlannerUsage }
  /** Stop in `waiting_user` until a person acts (e.g. reviews proposed acceptance checks), then plan again. */
  | { type: 'wait'; reason: string; usage?: PlannerUsage };

/** Chooses the smallest next step from the task's recorded state. */
export interface Planner {
  readonly kind: string;
  next(state: PlannerState, signal: AbortSignal): Promise<PlannerDecision>;
}

/** A playbook step as a planner decision body. */
export type PlannedPlaybookStep = Pick<PlaybookStep, 'tool' | 'capability' | 'args' | 'expect' | 'retries'>;
