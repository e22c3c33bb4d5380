import { afterEach, describe, expect, it } from 'vitest';
import { TaskQueueRepo } from '../../../../electron/runtime/store/taskQueueRepo.js';
import type { TestRuntime } from '../../../support/runtime.js';
import { openStoreTestRuntime, STORE_KINDS, storeMissing } from '../../../support/storeKinds.js';

// A worker finishes its queue entry in the commit that gives the task's lease back, or alone when
// the run threw (scheduler/backgroundQueue.ts). A worker whose lease was taken meanwhile ends its
// run late: by then the entry was handed back and another worker holds it, which its late finish
// must not end.

let h: TestRuntime;
afterEach(async () => h?.cleanup());

const AT = '2026-12-06T10:00:00.000Z';
/** Every heartbeat is older than this: no worker row is live, so worker-a's entries are orphans. */
const FRESH = '2026-12-06T11:00:00.000Z';

describe.each(STORE_KINDS)('a queue entry finished with the lease release (%s store)', (kind) => {
  const absent = storeMissing(kind);
  if (absent) return void it.skipIf(absent !== undefined)(`needs ${kind}: ${absent}`, () => undefined);

  it('is finished only by the worker holding it: one handed back and claimed again stays with its new holder', async () => {
    h = await openStoreTestRuntime(kind);
    const task = await h.rt.engine.create({ title: 't', plan: { kind: 'goal', goal: 'g' }, inputs: {} });
    const queue = new TaskQueueRepo(h.rt.store.sql);
    await queue.enqueue(task.id, {}, AT);
    const { seq } = (await queue.get(task.id))!;
    const finishAtRelease = (owner: string) =>
      h.rt.store.transaction(async (tx) => {
        await tx.tasks.release(task.id, owner);
        await new TaskQueueRepo(tx.sql).finish(seq, owner, 'succeeded', AT);
      });

    expect(await queue.claim(seq, 'worker-a', AT)).toBe(true);
    expect(await queue.releaseOrphans('worker-b', FRESH)).toBe(1);
    expect(await queue.claim(seq, 'worker-b', AT)).toBe(true);

    await finishAtRelease('worker-a');
    expect(await queue.get(task.id)).toMatchObject({ state: 'running', owner: 'worker-b', starts: 2 });
    await finishAtRelease('worker-b');
    expect(await queue.get(task.id)).toMatchObject({ state: 'done', outcome: 'succeeded' });
    expect((await queue.get(task.id))!.owner).toBeUndefined();
  });
});
