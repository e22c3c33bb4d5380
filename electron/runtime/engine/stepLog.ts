import type { Step } from '../../contract/index.js';

/**
 * The run's in-memory view of its step records, kept in step with the database so that each
 * loop iteration costs O(1) instead of rescanning the whole history.
 */
export class StepLog {
  private readonly steps: Step[] = [];
  private readonly positions = new Map<string, number>();
  private readonly latestByIndex = new Map<number, Step>();

  constructor(initial: readonly Step[] = []) {
    for (const step of initial) this.upsert(step);
  }

  upsert(step: Step): void {
    const at = this.positions.get(step.id);
    if (at === undefined) {
      this.positions.set(step.id, this.steps.length);
      this.steps.push(step);
    } else {
      this.steps[at] = step;
    }
    const latest = this.latestByIndex.get(step.index);
    if (!latest || latest.id === step.id || step.attempt > latest.attempt) this.latestByIndex.set(step.index, step);
  }

  /** Steps that ran (completed or failed): what the step budget counts. */
  executedCount(): number {
    return this.steps.filter((s) => s.status === 'completed' || s.status === 'failed').length;
  }

  /** Every record, in the order it was first written. */
  all(): readonly Step[] {
    return this.steps;
  }

  /** The highest attempt recorded for a plan index. */
  latest(index: number): Step | undefined {
    return this.latestByIndex.get(index);
  }

  /** The latest attempt of every plan index. */
  latestAll(): ReadonlyMap<number, Step> {
    return this.latestByIndex;
  }
}
