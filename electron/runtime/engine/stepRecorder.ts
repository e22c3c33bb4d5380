import type { Step, TraceEventType } from '../../contract/index.js';
import type { Write } from './commitQueue.js';

/**
 * What a step executor writes. The task run implements it over its CommitQueue, so every write
 * lands in the run's order, and a step's record, its trace events and what rides along with
 * them commit together.
 */
export interface StepRecorder {
  /**
   * Records a step (row, in-memory log, `task.step` event); what `extra` writes through `trace`
   * and `commit` (events, an approval's row) lands in the same commit, after the row. Resolves once committed; `lazy`
   * (completed read-only steps only) may join a later commit: losing it to a crash only means
   * the read is done again.
   */
  saveStep(step: Step, extra?: () => void, lazy?: boolean): Promise<Step>;
  /** Appends a trace event in the run's commit order (committed now, without waiting for it). */
  trace(type: TraceEventType, data: Record<string, unknown>, stepId?: string): void;
  /** Queues a write to ride the next commit (`lazy`, the default), or commits it now, in order (`lazy: false`). */
  commit(write: Write, lazy?: boolean): Promise<void>;
}
