import type { Repos, Store } from '../store/store.js';
import type { TaskRun } from './taskRun.js';

/**
 * The task runs of this process. Made before the engine, so the parts the engine is built with
 * (hooks, telemetry, model metering) can ask whether a task runs here and write with its run.
 */
export class LocalRuns {
  private readonly runs = new Map<string, TaskRun>();

  /** `store`: where a write about a task that does not run here commits on its own. */
  constructor(private readonly store: Pick<Store, 'transaction'>) {}

  get(taskId: string): TaskRun | undefined {
    return this.runs.get(taskId);
  }

  add(taskId: string, run: TaskRun): void {
    this.runs.set(taskId, run);
  }

  remove(taskId: string): void {
    this.runs.delete(taskId);
  }

  all(): TaskRun[] {
    return [...this.runs.values()];
  }

  get size(): number {
    return this.runs.size;
  }

  isRunningHere(taskId: string): boolean {
    return this.runs.has(taskId);
  }

  /**
   * A write about a task (its `model.call` trace event, a hook's record), joined to the run's
   * next commit when the task runs in this process, so it costs no commit of its own; else at once.
   */
  writeWithRun(taskId: string, write: (tx: Repos) => Promise<unknown>, lazy = true): Promise<void> {
    const run = this.runs.get(taskId);
    return run ? run.commitWrite(write, lazy) : this.store.transaction(async (tx) => void (await write(tx)));
  }
}
