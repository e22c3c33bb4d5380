import { afterEach, describe, expect, it } from 'vitest';
import { RunHold } from '../../../../electron/runtime/engine/runHold.js';
import { AgentDeskError } from '../../../../electron/runtime/errors.js';
import type { Repos } from '../../../../electron/runtime/store/store.js';
import { TaskQueueRepo } from '../../../../electron/runtime/store/taskQueueRepo.js';
import { rejected } from '../../../support/errors.js';
import type { TestRuntime } from '../../../support/runtime.js';
import { openStoreTestRuntime, STORE_KINDS, storeMissing } from '../../../support/storeKinds.js';

// A run's hold on its task (engine/runHold.ts): the release carries the queue's finish in one
// commit, so the two land together or not at all, and a commit after the lease was taken writes nothing.

let h: TestRuntime;
afterEach(async () => h?.cleanup());

const AT = '2026-12-06T10:00:00.000Z';

async function queuedTask(): Promise<{ taskId: string; seq: number; queue: TaskQueueRepo }> {
  const task = await h.rt.engine.create({ title: 't', plan: { kind: 'goal', goal: 'g' }, inputs: {} });
  const queue = new TaskQueueRepo(h.rt.store.sql);
  await queue.enqueue(task.id, {}, AT);
  const { seq } = (await queue.get(task.id))!;
  expect(await queue.claim(seq, h.rt.lease.id, AT)).toBe(true);
  return { taskId: task.id, seq, queue };
}

const ownerOf = async (taskId: string) =>
  (await h.rt.store.sql.get<{ owner: string | null }>('SELECT owner FROM tasks WHERE id = ?', [taskId]))!.owner;

describe.each(STORE_KINDS)('a run hold (%s store)', (kind) => {
  const absent = storeMissing(kind);
  if (absent) return void it.skipIf(absent !== undefined)(`needs ${kind}: ${absent}`, () => undefined);

  it('releases the lease and finishes the queue entry in one commit', async () => {
    h = await openStoreTestRuntime(kind);
    const { taskId, seq, queue } = await queuedTask();
    const hold = new RunHold(h.rt, taskId);
    const claimed = await hold.claim();
    expect(await ownerOf(taskId)).toBe(h.rt.lease.id);

    await hold.release(claimed!.task, (tx, task) => new TaskQueueRepo(tx.sql).finish(seq, h.rt.lease.id, task.state, AT));
    expect(await ownerOf(taskId)).toBeNull();
    expect(await queue.get(taskId)).toMatchObject({ state: 'done', outcome: 'queued' });
  });

  it('keeps both when the finish fails: the lease is still held and the caller hears of it', async () => {
    h = await openStoreTestRuntime(kind);
    const { taskId, queue } = await queuedTask();
    const hold = new RunHold(h.rt, taskId);
    const claimed = await hold.claim();

    const failing = async () => {
      throw new Error('the finish could not be written');
    };
    await expect(hold.release(claimed!.task, failing)).rejects.toThrow('the finish could not be written');
    expect(await ownerOf(taskId)).toBe(h.rt.lease.id);
    expect(await queue.get(taskId)).toMatchObject({ state: 'running' });
  });

  it('writes nothing once another worker holds the task, and tells the run it was taken over', async () => {
    h = await openStoreTestRuntime(kind);
    const { taskId } = await queuedTask();
    const hold = new RunHold(h.rt, taskId);
    await hold.claim();
    await h.rt.store.sql.run('UPDATE tasks SET owner = ? WHERE id = ?', ['worker-elsewhere', taskId]);

    const told: AgentDeskError[] = [];
    const rename = (tx: Repos) => tx.sql.defer('UPDATE tasks SET title = ? WHERE id = ?', ['renamed', taskId]);
    const commit = hold.commit(rename, (lost) => told.push(lost));
    expect(await rejected(commit)).toMatchObject({ code: 'conflict' });
    expect(told.map((e) => e.message)).toEqual([`task ${taskId} was taken over by another worker`]);
    expect((await h.rt.store.tasks.get(taskId))!.title).toBe('t');
  });
});
