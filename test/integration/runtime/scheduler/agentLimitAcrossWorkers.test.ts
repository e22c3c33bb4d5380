import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../electron/runtime/assembleRuntime.js';
import { TaskQueueRepo } from '../../../../electron/runtime/store/taskQueueRepo.js';
import { openStoreTestRuntime, STORE_KINDS, storeMissing } from '../../../support/storeKinds.js';
import type { TestRuntime } from '../../../support/runtime.js';
import { testTool } from '../../../support/testTools.js';

// An agent's maxConcurrent holds across workers sharing one store, not only inside one process.

const HELD = `
name: held
steps:
  - { id: hold, tool: test.hold, args: {} }
`;

// Held anew for each test: the first test's release must not let the second's tasks finish at once.
let release: () => void = () => undefined;
let held: Promise<void>;
beforeEach(() => void (held = new Promise<void>((r) => (release = r))));
const hold = testTool({ name: 'test.hold', risk: 'read', readOnly: true, idempotent: true, run: async () => (await held, { ok: true }) });

let h: TestRuntime | undefined;
let other: Runtime | undefined;
afterEach(async () => {
  release();
  await h?.rt.scheduler.stop();
  await other?.scheduler.stop();
  await other?.close();
  await h?.cleanup();
  h = other = undefined;
});

/** Queued tasks of agent `solo`; their entries' seqs, oldest first. */
async function queueSolo(rt: Runtime, home: string, n: number): Promise<number[]> {
  for (let i = 0; i < n; i++) {
    const task = await rt.engine.create({
      title: `solo ${i}`,
      plan: { kind: 'playbook', source: HELD, baseDir: home },
      inputs: {},
      agent: 'solo',
    });
    await rt.scheduler.queue.add(task.id);
  }
  return (await new TaskQueueRepo(rt.store.sql).all()).map((e) => e.seq);
}

const runningSolo = async (rt: Runtime) => (await new TaskQueueRepo(rt.store.sql).runningByAgent()).get('solo') ?? 0;

describe.each(STORE_KINDS)("an agent's concurrency limit across workers (%s store)", (kind) => {
  const absent = storeMissing(kind);
  if (absent) return void it.skipIf(absent !== undefined)(`needs ${kind}: ${absent}`, () => undefined);

  it('two workers that both saw a free slot: only one claim takes it, the other is refused', async () => {
    h = await openStoreTestRuntime(kind, { tools: [hold] });
    await h.rt.agents.create({ name: 'solo', maxConcurrent: 1 });
    other = h.another();
    const [first, second, third] = await queueSolo(h.rt, h.home, 3);
    const at = new Date().toISOString();
    const claimIn = (rt: Runtime, seq: number, worker: string) =>
      new TaskQueueRepo(rt.store.sql).claimWithinLimit(seq, worker, at, 'solo', 1);
    // Both read the agent's running count as 0 before either claims (what each worker's pump saw).
    expect([await runningSolo(h.rt), await runningSolo(other)]).toEqual([0, 0]);
    expect(await claimIn(h.rt, first!, 'w-a')).toBe(true);
    expect(await claimIn(other, second!, 'w-b')).toBe(false);
    // At the same instant, from two connections: still one slot, and it is taken.
    const racing = await Promise.all([claimIn(h.rt, second!, 'w-a'), claimIn(other, third!, 'w-b')]);
    expect(racing).toEqual([false, false]);
    expect(await runningSolo(h.rt)).toBe(1);
    await new TaskQueueRepo(h.rt.store.sql).finish(first!, 'w-a', 'succeeded', at);
    const freed = await Promise.all([claimIn(h.rt, second!, 'w-a'), claimIn(other, third!, 'w-b')]);
    expect(freed.filter(Boolean)).toHaveLength(1);
    expect(await runningSolo(h.rt)).toBe(1);
  });

  it('two queues pumping at once run one task of the agent, not one each', async () => {
    h = await openStoreTestRuntime(kind, { tools: [hold] });
    await h.rt.agents.create({ name: 'solo', maxConcurrent: 1 });
    other = h.another();
    await queueSolo(h.rt, h.home, 4);
    h.rt.scheduler.queue.start();
    other.scheduler.queue.start();
    await Promise.all([
      h.rt.scheduler.queue.pump(),
      other.scheduler.queue.pump(),
      h.rt.scheduler.queue.pump(),
      other.scheduler.queue.pump(),
    ]);
    expect(await runningSolo(h.rt)).toBe(1);
    expect(h.rt.scheduler.queue.active + other.scheduler.queue.active).toBe(1);
  });
});
