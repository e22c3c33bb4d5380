import type { Repos, Store } from '../store/store.js';
import type { TaskRun } from './taskRun.js';

/**
 * The task runs of this process. Made before the engine, so the parts the engine is built with
 * (hooks, telemetry, model metering) can ask whether a task runs here and write with its run.
 */
const ENDED_KEPT = 512;

export class LocalRuns {
  private readonly runs = new Map<string, TaskRun>();
  /** When runs of this process ended, newest last (a few hundred kept). */
  private readonly ended = new Map<string, number>();

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
    this.ended.delete(taskId);
    this.ended.set(taskId, Date.now());
    if (this.ended.size > ENDED_KEPT) this.ended.delete(this.ended.keys().next().value!);
  }

  /** True while the task runs here, or when its run here ended less than `ms` ago. */
  ranHereWithin(taskId: string, ms: number): boolean {
    if (this.runs.has(taskId)) return true;
    const ended = this.ended.get(taskId);
    return ended !== undefined && Date.now() - ended < ms;
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
