import type { Step, TraceEventType } from '../../contract/index.js';

/**
 * What a step executor writes. The task run implements it over its CommitQueue, so every write
 * lands in the run's order, and a step's record, its trace events and what rides along with
 * them commit together.
 */
export interface StepRecorder {
  /**
   * Records a step (row, in-memory log, `task.step` event); `extra` writes land in the same
   * commit, after the row. `lazy` (completed read-only steps only) may join a later commit:
   * losing it to a crash only means the read is done again.
   */
  saveStep(step: Step, extra?: () => void, lazy?: boolean): Step;
  /** Appends a trace event in the run's commit order. */
  trace(type: TraceEventType, data: Record<string, unknown>, stepId?: string): void;
  /** Queues a write to ride the next commit (`lazy`, the default), or commits it now, in order (`lazy: false`). */
  commit(write: () => void, lazy?: boolean): void;
}
