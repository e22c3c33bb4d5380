import type { AcceptanceCheck, CheckResult, EventName, EventPayloads, Playbook, PlaybookService, Task } from '../../contract/index.js';
import type { Planner } from '../planning/planner.js';
import type { CheckRunContext } from '../verify/checkGate.js';

/** Publishes a contract event (the gateway's event bus implements it). */
export type Emit = <E extends EventName>(name: E, payload: EventPayloads[E]) => void;

/** Local services a playbook declared, running for the length of one run. */
export interface RunningServices {
  /** name → base URL, e.g. `http://127.0.0.1:43121`. */
  urls: Record<string, string>;
  stop(): Promise<void>;
}

/** Starts a playbook's services (implemented with child processes in capabilities). */
export interface ServiceHost {
  start(
    services: readonly PlaybookService[],
    opts: {
      baseDir: string;
      workspace: string;
      /** Ports used before (resume): reused when free, so recorded URLs stay valid. */ ports?: Record<string, number>;
    },
  ): Promise<RunningServices>;
}

/** Values templates may reference besides inputs and step outputs. */
export interface TemplateEnv {
  services: Record<string, { url: string }>;
}

/** Everything the engine needs to drive one task's plan. */
export interface TaskPlan {
  planner: Planner;
  services: readonly PlaybookService[];
  baseDir: string;
  /** Acceptance checks with templates resolved against the finished run. */
  acceptance(scope: { inputs: Record<string, unknown>; outputs: Record<string, unknown>; env: TemplateEnv; task: Task }): AcceptanceCheck[];
  /** A playbook task's parsed playbook (wrappers read it instead of parsing again). */
  playbook?: Playbook;
}

/** Builds the plan for a task (parsing its playbook, unless the creator parsed it already, and choosing its planner). */
/** Builds a task's plan (a goal task's reads which tools its agent may use: asynchronously). */
export type PlanFactory = (task: Task, parsed?: Playbook) => TaskPlan | Promise<TaskPlan>;

/** Runs acceptance checks. */
export type CheckRunner = (checks: readonly AcceptanceCheck[], ctx: CheckRunContext) => Promise<CheckResult[]>;
