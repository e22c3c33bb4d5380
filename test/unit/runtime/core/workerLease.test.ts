import { afterEach, describe, expect, it } from 'vitest';
import { WorkerLease } from '../../../../electron/runtime/core/workerLease.js';
import { Store } from '../../../../electron/runtime/store/store.js';
import { pollUntil } from '../../../support/poll.js';

let store: Store | undefined;
let lease: WorkerLease | undefined;
afterEach(async () => {
  await lease?.close();
  await store?.close();
  lease = store = undefined;
});

const row = (id: string) => store!.sql.get<{ heartbeat_at: string }>('SELECT heartbeat_at FROM workers WHERE id = ?', [id]);

describe('a worker lease', () => {
  it('registers on first use and keeps its heartbeat fresh', async () => {
    store = Store.open(':memory:');
    lease = new WorkerLease(store.sql, { plannerVersion: 1, leaseMs: 150 });
    expect(await row(lease.id)).toBeUndefined(); // a process that never runs a task never registers
    await lease.reap();
    const first = (await row(lease.id))!.heartbeat_at;
    await pollUntil('a newer heartbeat', async () => ((await row(lease!.id))!.heartbeat_at > first ? true : undefined));
  });

  it('told its row was reaped (its heartbeat came too late), it says so and goes on under a new id', async () => {
    store = Store.open(':memory:');
    const lost: string[] = [];
    lease = new WorkerLease(store.sql, { plannerVersion: 1, leaseMs: 150, onLost: (reason) => lost.push(reason) });
    await lease.reap();
    const before = lease.id;
    await store.sql.run('DELETE FROM workers WHERE id = ?', [before]);
    await pollUntil('the loss to be told', () => (lost.length > 0 ? true : undefined));
    expect(lost[0]).toContain(`worker ${before} lost its leases`);
    expect(lease.id).not.toBe(before);
    expect(await row(lease.id)).toBeDefined();
  });

  it('while the store cannot be reached it claims nothing, and says when it can again', async () => {
    store = Store.open(':memory:');
    const health: boolean[] = [];
    let failing = true;
    const flaky = new Proxy(store.sql, {
      get: (target, key, receiver) =>
        key === 'run'
          ? (sql: string, params?: never) =>
              failing && sql.startsWith('UPDATE workers') ? Promise.reject(new Error('connection lost')) : target.run(sql, params)
          : Reflect.get(target, key, receiver),
    });
    lease = new WorkerLease(flaky, { plannerVersion: 1, leaseMs: 150, onHealth: (ok) => health.push(ok) });
    await lease.reap();
    await pollUntil('the failed heartbeat', () => (health.includes(false) ? true : undefined));
    expect(lease.healthy()).toBe(false);
    failing = false;
    await pollUntil('the heartbeat back', () => (lease!.healthy() ? true : undefined));
    expect(health).toEqual([false, true]);
  });

  it('leaving removes its row: what it held is free for the next at once', async () => {
    store = Store.open(':memory:');
    lease = new WorkerLease(store.sql, { plannerVersion: 1 });
    await lease.reap();
    const id = lease.id;
    await lease.close();
    expect(await row(id)).toBeUndefined();
  });
});
