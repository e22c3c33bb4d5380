import { afterEach, describe, expect, it } from 'vitest';
import type { EventFrame } from '../../../../electron/contract/index.js';
import type { Runtime } from '../../../../electron/runtime/assembleRuntime.js';
import { storeWatchModule } from '../../../../electron/runtime/gateway/storeWatch.js';
import { pollUntil } from '../../../support/poll.js';
import { createPlaybookTask, waitForState, type TestRuntime } from '../../../support/runtime.js';
import { openStoreTestRuntime, STORE_KINDS, storeMissing, type StoreKind } from '../../../support/storeKinds.js';

const DELETE = `name: tidy
steps:
  - id: write
    tool: fs.write
    args: { path: old.log, content: "x" }
  - id: delete
    tool: fs.delete
    args: { path: old.log }
`;

let gateway: TestRuntime | undefined;
let cli: Runtime | undefined;
afterEach(async () => {
  // A failed test may leave the CLI's run waiting for its approval, which close() would wait for.
  for (const task of (await cli?.store.tasks.inStates(['waiting_approval'])) ?? []) await cli!.engine.cancel(task.id);
  await cli?.close();
  await gateway?.cleanup();
  cli = gateway = undefined;
});

/** A gateway runtime that watches the store, and a second runtime on the same data folder (a CLI process). */
async function gatewayAndCli(kind: StoreKind): Promise<{ seen: EventFrame[]; internal: EventFrame[] }> {
  gateway = await openStoreTestRuntime(kind, { modules: (core) => [storeWatchModule(core, { intervalMs: 20 })] });
  const seen: EventFrame[] = [];
  const internal: EventFrame[] = [];
  gateway.rt.bus.on({}, (frame) => seen.push(frame), { elsewhere: true });
  gateway.rt.bus.on({}, (frame) => internal.push(frame));
  cli = gateway.another();
  return { seen, internal };
}

describe.each(STORE_KINDS)('a gateway watching the store (another process runs the task) (%s store)', (kind) => {
  const absent = storeMissing(kind);
  if (absent) return void it.skipIf(absent !== undefined)(`needs ${kind}: ${absent}`, () => undefined);
  it('publishes the task, its approval and its decision to views, and to nothing else of the runtime', async () => {
    const { seen, internal } = await gatewayAndCli(kind);
    const task = await createPlaybookTask(cli!, DELETE);
    await cli!.engine.start(task.id);
    await waitForState(cli!, task.id, ['waiting_approval']);
    const requested = await pollUntil('approval.requested at the gateway', () =>
      seen.find((f) => f.event === 'approval.requested' && (f.data as { taskId: string }).taskId === task.id),
    );
    const approvalId = (requested.data as { id: string }).id;
    // The task's new state and its approval may be read in two looks (one commit can land between the two reads).
    await pollUntil('the waiting task at the gateway', () =>
      seen.find((f) => f.event === 'task.updated' && (f.data as { id: string; state: string }).state === 'waiting_approval'),
    );
    // Decided over the gateway's RPC while the CLI's run waits: the CLI's runner picks it up.
    await gateway!.rt.dispatcher.dispatch(
      { id: 1, method: 'approvals.decide', params: { approvalId, decision: 'approve' } },
      { scopes: ['operator.approvals'], clientId: 'ui' },
    );
    await waitForState(cli!, task.id, ['succeeded']);
    await pollUntil('the end at the gateway', () =>
      seen.find((f) => f.event === 'task.updated' && (f.data as { state: string }).state === 'succeeded'),
    );
    // Hooks, telemetry, desktops and the scheduler listen without `elsewhere`: the CLI's news never reaches them.
    expect(internal.filter((f) => f.event === 'task.updated' && (f.data as { id: string }).id === task.id)).toEqual([]);
    expect(internal.filter((f) => f.event === 'approval.requested')).toEqual([]);
  });

  it("publishes each change once: the gateway's own events are not repeated as news", async () => {
    const { seen, internal } = await gatewayAndCli(kind);
    const own = await createPlaybookTask(gateway!.rt, 'name: own\nsteps:\n  - tool: echo\n    args: { value: 1 }\n');
    await gateway!.rt.engine.run(own.id);
    const other = await createPlaybookTask(cli!, 'name: other\nsteps:\n  - tool: echo\n    args: { value: 2 }\n');
    await cli!.engine.run(other.id);
    await pollUntil('the other task at the gateway', () =>
      seen.find(
        (f) =>
          f.event === 'task.updated' &&
          (f.data as { id: string; state: string }).state === 'succeeded' &&
          (f.data as { id: string }).id === other.id,
      ),
    );
    const news = seen.filter((f) => !internal.includes(f)); // delivered only to views: read from the store
    const updatesOf = (frames: EventFrame[], id: string) =>
      frames
        .filter((f) => f.event === 'task.updated' && (f.data as { id: string }).id === id)
        .map((f) => (f.data as { updatedAt: string }).updatedAt);
    const toldHere = new Set(updatesOf(internal, own.id));
    expect(updatesOf(news, own.id).filter((at) => toldHere.has(at))).toEqual([]); // nothing the gateway said itself
    const otherNews = updatesOf(news, other.id);
    expect(otherNews.length).toBeGreaterThan(0);
    expect(new Set(otherNews).size).toBe(otherNews.length); // each change once
  });
});

describe.each(STORE_KINDS)('a four-eyes vote cast in another process reaches the gateway (%s store)', (kind) => {
  const absent = storeMissing(kind);
  if (absent) return void it.skipIf(absent !== undefined)(`needs ${kind}: ${absent}`, () => undefined);
  it('a first approval, still waiting, is news (approval.updated with the vote); the second decides it', async () => {
    gateway = await openStoreTestRuntime(kind, {
      config: { policy: { approvals: { delete: { approvers: 2 } } } },
      modules: (core) => [storeWatchModule(core, { intervalMs: 20 })],
    });
    const seen: EventFrame[] = [];
    gateway.rt.bus.on({}, (frame) => seen.push(frame), { elsewhere: true });
    cli = gateway.another();
    const task = await createPlaybookTask(cli, DELETE);
    await cli.engine.start(task.id);
    await waitForState(cli, task.id, ['waiting_approval']);
    const [approval] = await cli.approvals.list({ taskId: task.id, status: 'pending' });
    await pollUntil('the request at the gateway', () => seen.find((f) => f.event === 'approval.requested'));
    const bob = { subject: 'idp#bob', name: 'Bob', roles: ['approver' as const], groups: [], signedIn: true };
    await cli.approvals.decide(approval!.id, { decision: 'approve', remember: 'once' }, 'bob', bob);
    const updated = await pollUntil('the vote at the gateway', () => seen.find((f) => f.event === 'approval.updated'));
    expect(updated.data).toMatchObject({ id: approval!.id, status: 'pending', votes: [{ by: { name: 'Bob' }, counted: true }] });
    const carol = { ...bob, subject: 'idp#carol', name: 'Carol' };
    await cli.approvals.decide(approval!.id, { decision: 'approve', remember: 'once' }, 'carol', carol);
    await pollUntil('the decision at the gateway', () =>
      seen.find((f) => f.event === 'approval.resolved' && (f.data as { status: string }).status === 'approved'),
    );
    await waitForState(cli, task.id, ['succeeded']);
  });
});

describe('a gateway on PostgreSQL hears changes by notice (LISTEN/NOTIFY), with no look in between', () => {
  const absent = storeMissing('postgres');
  if (absent) return void it.skipIf(absent !== undefined)(`needs postgres: ${absent}`, () => undefined);
  it("publishes another process's task and approval, and its decision wakes that process's waiting runner at once", async () => {
    // No look for a minute and no runner poll for a minute: only notices can carry any of it.
    const quiet = { intervalMs: 60_000 };
    gateway = await openStoreTestRuntime('postgres', { pollMs: 60_000, modules: (core) => [storeWatchModule(core, quiet)] });
    const seen: EventFrame[] = [];
    gateway.rt.bus.on({}, (frame) => seen.push(frame), { elsewhere: true });
    cli = gateway.another();
    await new Promise((r) => setTimeout(r, 300)); // both listening
    const task = await createPlaybookTask(cli, DELETE);
    await cli.engine.start(task.id);
    const requested = await pollUntil('approval.requested at the gateway', () =>
      seen.find((f) => f.event === 'approval.requested' && (f.data as { taskId: string }).taskId === task.id),
    );
    await pollUntil('the waiting task at the gateway', () =>
      seen.find((f) => f.event === 'task.updated' && (f.data as { id: string; state: string }).state === 'waiting_approval'),
    );
    await gateway.rt.dispatcher.dispatch(
      { id: 1, method: 'approvals.decide', params: { approvalId: (requested.data as { id: string }).id, decision: 'approve' } },
      { scopes: ['operator.approvals'], clientId: 'ui' },
    );
    // Well before the runner's own minute-long poll: the notice of the decision woke it.
    await waitForState(cli, task.id, ['succeeded'], 10_000);
    await pollUntil('the end at the gateway', () =>
      seen.find((f) => f.event === 'task.updated' && (f.data as { state: string }).state === 'succeeded'),
    );
  });

  it('a listener whose connection is killed listens again, and what changed meanwhile still arrives', async () => {
    gateway = await openStoreTestRuntime('postgres', { modules: (core) => [storeWatchModule(core, { intervalMs: 60_000 })] });
    const seen: EventFrame[] = [];
    gateway.rt.bus.on({}, (frame) => seen.push(frame), { elsewhere: true });
    cli = gateway.another();
    await new Promise((r) => setTimeout(r, 300));
    const killListeners =
      "SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'";
    expect((await cli.store.sql.all(killListeners)).length).toBeGreaterThan(0);
    const task = await createPlaybookTask(cli, 'name: one\nsteps:\n  - tool: echo\n    args: { value: 1 }\n');
    await cli.engine.run(task.id);
    await pollUntil('the task at the gateway', () =>
      seen.find(
        (f) =>
          f.event === 'task.updated' &&
          (f.data as { id: string; state: string }).id === task.id &&
          (f.data as { state: string }).state === 'succeeded',
      ),
    );
  });
});
