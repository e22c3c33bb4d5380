import type { Step, Task, TaskState } from '../../contract/index.js';
import type { AnyStateReason } from './stateReasons.js';

/** What a step executor reads of the run it works for (the task run builds it once per run). */
export interface RunView {
  /** The task as last recorded; every transition replaces it, so read it again after one. */
  task(): Task;
  /** The highest attempt recorded at a plan position (undefined: never tried). */
  latestStep(index: number): Step | undefined;
  /** Aborted by pause or cancel: tool calls and waits pass it on. */
  readonly signal: AbortSignal;
  /** Hosts external_http may reach for this run besides `policy.networkAllow` (the playbook's own services). */
  networkAllow(): readonly string[];
  /** Return as soon as a step waits for an approval (non-interactive CLI) instead of waiting for it. */
  readonly detachOnApproval: boolean;
}

/** What a step executor may change about the run besides its records: its state and its step count. */
export interface RunControl {
  /** Records a state change (row, trace, event) before anything acts on it. */
  transition(to: TaskState, why: AnyStateReason): Promise<void>;
  /** Ends the task failed, with the reason recorded. */
  fail(why: AnyStateReason): Promise<void>;
  /** Applies a pending pause or cancel ('stopped'); 'go' when there is none. */
  honourControl(): Promise<'stopped' | 'go'>;
  /** Charges one executed step (completed or failed) to the task's step budget. */
  countStep(): void;
}
