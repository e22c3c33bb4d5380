import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../electron/runtime/assembleRuntime.js';
import { hostKey } from '../../../../electron/runtime/core/workerLease.js';
import { TaskQueueRepo } from '../../../../electron/runtime/store/taskQueueRepo.js';
import { rejected } from '../../../support/errors.js';
import { pollUntil } from '../../../support/poll.js';
import { createPlaybookTask, waitForState, type TestRuntime } from '../../../support/runtime.js';
import { openStoreTestRuntime, STORE_KINDS, storeMissing } from '../../../support/storeKinds.js';
import { testTool } from '../../../support/testTools.js';

// Runner leases across machines: a worker elsewhere is known only by its row and heartbeat.

const CHARGE = `name: charge
steps:
  - id: charge
    tool: charge
    args: { key: card-1 }
`;

let h: TestRuntime | undefined;
let other: Runtime | undefined;
afterEach(async () => {
  await other?.close();
  await h?.cleanup();
  h = other = undefined;
});

const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

/** A worker on another machine, as its row says: fresh or stale by its heartbeat. */
async function workerElsewhere(rt: Runtime, id: string, heartbeatMsAgo: number): Promise<void> {
  await rt.store.sql.run('INSERT INTO workers (id, host, pid, planner_version, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?)', [
    id,
    'far-away|boot|pid:[1]',
    4242,
    1,
    iso(60_000),
    iso(heartbeatMsAgo),
  ]);
}

/** A task in the middle of a run owned by `owner` (a step had not started). */
async function runningTaskOwnedBy(rt: Runtime, owner: string): Promise<string> {
  const task = await createPlaybookTask(rt, 'name: echo\nsteps:\n  - tool: echo\n    args: { value: 1 }\n');
  await rt.store.tasks.setState(task.id, { state: 'running', at: iso(0) });
  await rt.store.sql.run('UPDATE tasks SET owner = ? WHERE id = ?', [owner, task.id]);
  return task.id;
}

describe.each(STORE_KINDS)('worker leases (%s store)', (kind) => {
  const absent = storeMissing(kind);
  if (absent) return void it.skipIf(absent !== undefined)(`needs ${kind}: ${absent}`, () => undefined);

  it('a live worker on another machine holds its run: this one refuses it and takes nothing over', async () => {
    h = await openStoreTestRuntime(kind);
    await workerElsewhere(h.rt, 'far:4242:aaaaaa', 1000);
    const id = await runningTaskOwnedBy(h.rt, 'far:4242:aaaaaa');
    const error = await rejected(h.rt.engine.run(id));
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('being run by worker far:4242:aaaaaa');
    expect(await h.rt.engine.recoverOrphans()).toEqual([]);
    expect(await h.rt.engine.recover()).toEqual([]);
    expect((await h.rt.engine.get(id)).state).toBe('running');
  });

  it('once its heartbeat is stale, the run is taken over and goes on here', async () => {
    h = await openStoreTestRuntime(kind);
    await workerElsewhere(h.rt, 'far:4242:bbbbbb', 60_000);
    const id = await runningTaskOwnedBy(h.rt, 'far:4242:bbbbbb');
    expect(await h.rt.engine.recoverOrphans()).toEqual([id]);
    expect((await waitForState(h.rt, id, ['succeeded', 'failed'])).state).toBe('succeeded');
    // The stale worker's row is gone: when it comes back its heartbeat finds nothing and it stops its runs.
    expect(await h.rt.store.sql.get('SELECT id FROM workers WHERE id = ?', ['far:4242:bbbbbb'])).toBeUndefined();
  });

  it('a worker whose machine went away mid-call: the next holds the started effect as uncertain, and the late result is not written', async () => {
    let calls = 0;
    let finish!: () => void;
    const finished = new Promise<void>((r) => (finish = r));
    const charge = testTool({ name: 'charge', risk: 'write', run: async () => (calls++, await finished, { charged: true }) });
    h = await openStoreTestRuntime(kind, { tools: [charge] });
    const task = await createPlaybookTask(h.rt, CHARGE);
    const first = h.rt.engine.run(task.id);
    await pollUntil('the charge to be sent', () => (calls === 1 ? true : undefined));
    // Its machine is gone: its row goes stale (no heartbeat reaches the store any more).
    await h.rt.store.sql.run('UPDATE workers SET host = ?, heartbeat_at = ? WHERE id = ?', ['gone|x|y', iso(60_000), h.rt.lease.id]);
    other = h.another();
    expect(await other.engine.recoverOrphans()).toEqual([task.id]);
    const held = await waitForState(other, task.id, ['waiting_user', 'paused', 'failed', 'succeeded']);
    expect(held.state).not.toBe('succeeded');
    const step = (await other.engine.steps(task.id)).find((s) => s.tool === 'charge')!;
    expect(step.status).toBe('uncertain');
    // The first worker's call returns after all: its run stops without writing the result.
    finish();
    await first.catch(() => undefined);
    expect((await other.engine.steps(task.id)).find((s) => s.tool === 'charge')!.status).toBe('uncertain');
    expect(calls).toBe(1);
  });

  it('an older worker never takes a task saved by a newer planner, and leaves it as it was', async () => {
    h = await openStoreTestRuntime(kind);
    await workerElsewhere(h.rt, 'far:4242:cccccc', 60_000);
    const id = await runningTaskOwnedBy(h.rt, 'far:4242:cccccc');
    await h.rt.store.sql.run('INSERT INTO planner_states (task_id, version, header, updated_at) VALUES (?, ?, ?, ?)', [
      id,
      h.rt.lease.plannerVersion + 1,
      '{}',
      iso(0),
    ]);
    await h.rt.store.sql.run("INSERT INTO task_queue (task_id, state, enqueued_at) VALUES (?, 'pending', ?)", [id, iso(0)]);
    expect(await h.rt.engine.recoverOrphans()).toEqual([]);
    expect(await h.rt.engine.recover()).toEqual([]);
    expect(await new TaskQueueRepo(h.rt.store.sql).ready(10, h.rt.lease.plannerVersion)).toEqual([]);
    const error = await rejected(h.rt.engine.run(id));
    expect(error.code).toBe('conflict');
    expect(error.message).toContain(`planner state version ${h.rt.lease.plannerVersion + 1}`);
    expect((await h.rt.engine.get(id)).state).toBe('running');
  });

  it('a worker on this machine whose process is gone frees its runs at once, before its heartbeat runs out', async () => {
    h = await openStoreTestRuntime(kind);
    const dead = spawnSync('true').pid!; // exited: its pid names no process now
    await h.rt.store.sql.run('INSERT INTO workers (id, host, pid, planner_version, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?)', [
      'here:dead:dddddd',
      hostKey(),
      dead,
      1,
      iso(1000),
      iso(0),
    ]);
    const id = await runningTaskOwnedBy(h.rt, 'here:dead:dddddd');
    expect(await h.rt.engine.recoverOrphans()).toEqual([id]);
    expect((await waitForState(h.rt, id, ['succeeded', 'failed'])).state).toBe('succeeded');
  });
});
