import { afterEach, describe, expect, it } from 'vitest';
import type { Task } from '../../../../electron/contract/index.js';
import { TaskQueueRepo } from '../../../../electron/runtime/store/taskQueueRepo.js';
import type { TestRuntime } from '../../../support/runtime.js';
import { openStoreTestRuntime, STORE_KINDS, storeMissing, type StoreKind } from '../../../support/storeKinds.js';
import { testTool } from '../../../support/testTools.js';

let h: TestRuntime | undefined;
afterEach(async () => {
  holds.releaseAll();
  await h?.rt.scheduler.stop();
  await h?.cleanup();
  h = undefined;
});

/** Calls that wait until the test lets one go. */
class Holds {
  private waiting: (() => void)[] = [];
  private open = false;
  wait(): Promise<unknown> {
    if (this.open) return Promise.resolve({ ok: true });
    return new Promise((resolve) => this.waiting.push(() => resolve({ ok: true })));
  }
  get count(): number {
    return this.waiting.length;
  }
  releaseOne(): void {
    this.waiting.shift()?.();
  }
  releaseAll(): void {
    this.open = true;
    for (const release of this.waiting.splice(0)) release();
  }
}
let holds = new Holds();

const HELD = `
name: held
steps:
  - { id: hold, tool: test.hold, args: {} }
`;

const ACTIVE: readonly Task['state'][] = ['planning', 'running', 'retrying'];
const until = async (ok: () => boolean | Promise<boolean>) => {
  while (!(await ok())) await new Promise((r) => setTimeout(r, 5));
};

/**
 * A runtime of 4 slots whose tasks hold until released, with agent `slow` limited to 2; `create`
 * makes a held task of that agent, or of none.
 */
async function openHeldQueue(kind: StoreKind = 'sqlite') {
  holds = new Holds();
  const hold = testTool({ name: 'test.hold', risk: 'read', readOnly: true, idempotent: true, run: () => holds.wait() });
  h = await openStoreTestRuntime(kind, { tools: [hold], scheduler: { concurrency: 4 } });
  const { rt, home } = h;
  await rt.agents.create({ name: 'slow', maxConcurrent: 2 });
  const create = (agent?: string) =>
    rt.engine.create({
      title: agent ?? 'free',
      plan: { kind: 'playbook', source: HELD, baseDir: home },
      inputs: {},
      ...(agent && { agent }),
    });
  return { rt, create };
}

/** The agents of the running tasks, sorted ('none' for a task of no agent). */
const runningAgents = async (rt: TestRuntime['rt']) =>
  (await rt.store.tasks.list({ limit: 100 }))
    .filter((t) => t.state === 'running')
    .map((t) => t.agent ?? 'none')
    .sort();

describe('per-agent concurrency in the background queue', () => {
  it('never runs more than maxConcurrent of one agent, while other work fills the global slots', async () => {
    const { rt, create } = await openHeldQueue();
    const scheduler = rt.scheduler;
    const queueRepo = new TaskQueueRepo(rt.store.sql);

    const slow: Task[] = [];
    for (let i = 0; i < 6; i++) slow.push(await create('slow'));
    const free: Task[] = [];
    for (let i = 0; i < 4; i++) free.push(await create());
    // The agent comes from the task itself; enqueueing names none.
    for (const task of [...slow, ...free]) await scheduler.queue.add(task.id);

    // At every task transition: how many tasks of the agent, and in all, are running (the reads
    // of one transition run one after another, so each sees the store as of its event).
    const peaks = { slowTasks: 0, slowEntries: 0, all: 0 };
    let looked: Promise<void> = Promise.resolve();
    const look = async () => {
      const tasks = (await rt.store.tasks.list({ limit: 100 })).filter((t) => ACTIVE.includes(t.state));
      peaks.slowTasks = Math.max(peaks.slowTasks, tasks.filter((t) => t.agent === 'slow').length);
      peaks.slowEntries = Math.max(peaks.slowEntries, (await queueRepo.runningByAgent()).get('slow') ?? 0);
      peaks.all = Math.max(peaks.all, tasks.length);
    };
    const stop = rt.bus.on({ events: ['task.updated'] }, () => {
      looked = looked.then(look);
    });

    scheduler.queue.start();
    // Full at once: two of the agent (its limit) and two others; let them go one by one.
    await until(() => holds.count === 4);
    expect(await runningAgents(rt)).toEqual(['none', 'none', 'slow', 'slow']);
    const allDone = async () => (await queueRepo.counts()).done === slow.length + free.length;
    while (!(await allDone())) {
      await until(async () => holds.count > 0 || (await allDone()));
      holds.releaseOne();
    }
    stop();
    await looked;

    expect(peaks).toEqual({ slowTasks: 2, slowEntries: 2, all: 4 });
    const states = await Promise.all([...slow, ...free].map(async (t) => (await rt.engine.get(t.id)).state));
    expect(states).toEqual(Array(10).fill('succeeded'));
  });
});

describe.each(STORE_KINDS)('a fill that pages through the ready entries (%s store)', (kind) => {
  const absent = storeMissing(kind);
  if (absent) return void it.skipIf(absent !== undefined)(`needs ${kind}: ${absent}`, () => undefined);

  it('passes over a long run of entries of an agent at its limit, page after page, to the free work behind them', async () => {
    const { rt, create } = await openHeldQueue(kind);
    // A page is the free slots plus a few: 20 entries of the full agent fill several pages before the free ones.
    for (let i = 0; i < 20; i++) await rt.scheduler.queue.add((await create('slow')).id);
    for (let i = 0; i < 2; i++) await rt.scheduler.queue.add((await create()).id);
    rt.scheduler.queue.start();
    await until(() => holds.count === 4);
    expect(await runningAgents(rt)).toEqual(['none', 'none', 'slow', 'slow']);
  });
});
