import type { Task } from '../../contract/index.js';
import { AgentDeskError } from '../errors.js';
import { isFenceBroken } from '../store/runFence.js';
import type { Repos } from '../store/store.js';
import type { TaskControl } from '../store/taskRepo.js';
import type { EngineDeps } from './engineDeps.js';

/** Writes that land with the release of a run's lease, given the task as the run left it. */
export type ReleaseWrites = (tx: Repos, task: Task) => Promise<void>;

/**
 * A run's hold on its task: the lease it claims, the fence on each of its commits, the release.
 * See docs/architecture.md, "Workers and leases".
 */
export class RunHold {
  /** The worker id the lease is held under (the claim's: it stays this run's even if the worker gets a new one). */
  private owner: string | undefined;

  constructor(
    private readonly deps: Pick<EngineDeps, 'lease' | 'store'>,
    private readonly taskId: string,
  ) {}

  /** The lease for this worker; the task as the claim found it, with its control flags (nothing more to read). */
  async claim(): Promise<{ task: Task; control: TaskControl | null } | undefined> {
    const { lease, store } = this.deps;
    await lease.reap();
    const owner = lease.id;
    const claimed = await store.tasks.claim(this.taskId, { id: owner, fresh: lease.freshSince(), plannerVersion: lease.plannerVersion });
    if (claimed) this.owner = owner;
    return claimed;
  }

  /**
   * A commit of the run, fenced by its lease: a worker whose lease was taken (its heartbeat came
   * too late) writes nothing more, so no step starts twice; `takenOver` stops the run.
   */
  async commit(fn: (tx: Repos) => Promise<void>, takenOver: (error: AgentDeskError) => void): Promise<void> {
    const owner = this.owner;
    try {
      await this.deps.store.transaction(async (tx) => {
        if (owner !== undefined) await tx.tasks.fence(this.taskId, owner);
        await fn(tx);
      });
    } catch (error) {
      if (!isFenceBroken(error)) throw error;
      takenOver(new AgentDeskError('conflict', `task ${this.taskId} was taken over by another worker`));
      throw new AgentDeskError('conflict', `task ${this.taskId} was taken over by another worker; this run stops`);
    }
  }

  /**
   * Gives the lease back; with the task the run rested in, `also` lands in the same commit (the
   * queue's entry finished with it: one round trip). A failed release is left to the lease's end;
   * one carrying `also` throws, so the caller learns its writes did not land.
   */
  async release(rested?: Task, also?: ReleaseWrites): Promise<void> {
    const owner = this.owner;
    if (owner === undefined) return;
    if (!rested || !also) return void (await this.deps.store.tasks.release(this.taskId, owner).catch(() => undefined));
    await this.deps.store.transaction(async (tx) => {
      await tx.tasks.release(this.taskId, owner);
      await also(tx, rested);
    });
  }
}
