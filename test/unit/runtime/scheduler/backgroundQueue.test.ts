import { describe, expect, it } from 'vitest';
import type { Task } from '../../../../electron/contract/index.js';
import type { TaskEngine } from '../../../../electron/runtime/engine/taskEngine.js';
import { BackgroundQueue } from '../../../../electron/runtime/scheduler/backgroundQueue.js';
import type { QueueEntry, TaskQueueRepo } from '../../../../electron/runtime/store/taskQueueRepo.js';

/** Lets other work of the process run, as a round trip to the database does. */
const yieldNow = () => new Promise<void>((r) => setImmediate(r));

/** The queue table in memory, every call a turn of the event loop (so pumps could interleave). */
class MemoryQueue {
  readonly entries: QueueEntry[] = [];
  claims = 0;

  async enqueue(taskId: string, opts: { agentId?: string }): Promise<void> {
    await yieldNow();
    const seq = this.entries.length + 1;
    this.entries.push({ seq, taskId, state: 'pending', starts: 0, ...(opts.agentId && { agentId: opts.agentId }) });
  }
  async ready(limit: number): Promise<QueueEntry[]> {
    await yieldNow();
    return this.entries.filter((e) => e.state === 'pending').slice(0, limit);
  }
  async claim(seq: number): Promise<boolean> {
    await yieldNow();
    const entry = this.entries.find((e) => e.seq === seq);
    if (entry?.state !== 'pending') return false;
    entry.state = 'running';
    entry.starts++;
    this.claims++;
    return true;
  }
  async claimWithinLimit(seq: number, _owner: string, _at: string, agentId: string, limit: number): Promise<boolean> {
    await yieldNow();
    const running = this.entries.filter((e) => e.state === 'running' && e.agentId === agentId).length;
    return running < limit && this.claim(seq);
  }
  async finish(seq: number, _owner: string, outcome: string): Promise<void> {
    await yieldNow();
    Object.assign(
      this.entries.find((e) => e.seq === seq)!,
      { state: 'done', outcome },
    );
  }
  async runningByAgent(): Promise<Map<string | null, number>> {
    await yieldNow();
    const counts = new Map<string | null, number>();
    for (const e of this.entries.filter((x) => x.state === 'running'))
      counts.set(e.agentId ?? null, (counts.get(e.agentId ?? null) ?? 0) + 1);
    return counts;
  }
  async releaseOrphans(): Promise<number> {
    await yieldNow();
    return 0;
  }
  get running(): number {
    return this.entries.filter((e) => e.state === 'running').length;
  }
}

/** Runs that end when the test lets them; counts how many run at once. */
class HeldRuns {
  private release: (() => void)[] = [];
  now = 0;
  peak = 0;
  readonly started: string[] = [];

  async run(taskId: string): Promise<Task> {
    this.started.push(taskId);
    this.peak = Math.max(this.peak, ++this.now);
    await new Promise<void>((resolve) => this.release.push(resolve));
    this.now--;
    return { state: 'succeeded' } as Task;
  }
  releaseAll(): void {
    for (const r of this.release.splice(0)) r();
  }
}

function queueOn(repo: MemoryQueue, runs: HeldRuns, concurrency: number, perAgent: Record<string, number> = {}): BackgroundQueue {
  const engine = { run: (id: string) => runs.run(id), isRunningHere: () => false } as unknown as TaskEngine;
  return new BackgroundQueue({
    engine,
    repo: repo as unknown as TaskQueueRepo,
    clock: { now: () => Date.now(), sleep: () => Promise.resolve() },
    lease: { id: 'w1', plannerVersion: 1, freshSince: () => new Date(0).toISOString(), reap: yieldNow, healthy: () => true },
    limits: {
      concurrency,
      perAgent: async (name) => {
        await yieldNow();
        return perAgent[name];
      },
    },
  });
}

describe('BackgroundQueue pumps', () => {
  it('several pumps at once never claim past the concurrency limit', async () => {
    const repo = new MemoryQueue();
    const runs = new HeldRuns();
    const queue = queueOn(repo, runs, 2);
    for (let i = 0; i < 10; i++) await queue.add(`tsk_${i}`);
    queue.start();
    await Promise.all(Array.from({ length: 6 }, () => queue.pump()));
    expect([queue.active, repo.running, repo.claims]).toEqual([2, 2, 2]);

    const drained = queue.drain();
    while (repo.entries.some((e) => e.state !== 'done')) {
      runs.releaseAll();
      await yieldNow();
    }
    await drained;
    expect(runs.peak).toBe(2);
    expect(runs.started.sort()).toEqual(repo.entries.map((e) => e.taskId).sort()); // each once
    expect(repo.entries.every((e) => e.starts === 1)).toBe(true);
  });

  it('several pumps at once keep an agent within its own limit', async () => {
    const repo = new MemoryQueue();
    const runs = new HeldRuns();
    const queue = queueOn(repo, runs, 4, { slow: 1 });
    for (let i = 0; i < 3; i++) await queue.add(`tsk_slow_${i}`, { agentId: 'slow' });
    for (let i = 0; i < 3; i++) await queue.add(`tsk_free_${i}`);
    queue.start();
    await Promise.all([queue.pump(), queue.pump(), queue.pump()]);
    expect(runs.started.filter((id) => id.includes('slow'))).toHaveLength(1);
    expect(queue.active).toBe(4);
    runs.releaseAll();
    await queue.stop();
  });

  it("two workers on one store keep an agent within its limit when one claims between the other's count and its list", async () => {
    const shared = new MemoryQueue();
    // Worker b reads the agent's running count before a claims, and its ready list after.
    const countedEarly = async () => {
      const counts = await shared.runningByAgent();
      while (shared.claims === 0) await yieldNow();
      return counts;
    };
    const bView = new Proxy(shared, {
      get: (target, key) => {
        if (key === 'runningByAgent') return countedEarly;
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const [runsA, runsB] = [new HeldRuns(), new HeldRuns()];
    const [a, b] = [queueOn(shared, runsA, 4, { slow: 1 }), queueOn(bView, runsB, 4, { slow: 1 })];
    for (let i = 0; i < 4; i++) await a.add(`tsk_slow_${i}`, { agentId: 'slow' });
    a.start();
    b.start();
    await Promise.all([a.pump(), b.pump()]);
    expect([runsA.started.length, runsB.started.length]).toEqual([1, 0]);
    expect(shared.running).toBe(1);
    runsA.releaseAll();
    await Promise.all([a.stop(), b.stop()]);
  });

  it('an entry added while a pump is under way is started by it (a pump asked for meanwhile is not lost)', async () => {
    const repo = new MemoryQueue();
    const runs = new HeldRuns();
    const queue = queueOn(repo, runs, 4);
    await queue.add('tsk_first');
    queue.start();
    const first = queue.pump();
    await queue.enqueue('tsk_second'); // lands while the first pump is mid-way
    await first;
    expect(runs.started.sort()).toEqual(['tsk_first', 'tsk_second']);
    runs.releaseAll();
    await queue.stop();
  });
});
