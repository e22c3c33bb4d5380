import { describe, expect, it } from 'vitest';
import { SandboxDriver } from '../../../../electron/capabilities/sandbox/sandboxDriver.js';
import { WorkerLease } from '../../../../electron/runtime/core/workerLease.js';
import { Store } from '../../../../electron/runtime/store/store.js';
import { missing } from '../../../support/requirements.js';
import { desktopImage } from '../../../support/sandboxImage.js';

const skip = missing('docker');

/** A driver labelling its containers with a worker lease of the shared store. */
const driverOf = (image: string, owner: string, lease: WorkerLease) =>
  new SandboxDriver({ image, owner, worker: { id: () => lease.id, joined: () => lease.joined(), isLive: (id) => lease.isLive(id) } });

/**
 * Two workers of one store, each with its driver on the same engine; `end` removes what is left.
 * The first has not yet registered (claimed nothing) unless `firstJoined`.
 */
async function twoWorkers(owner: string, { firstJoined = true } = {}) {
  const image = await desktopImage();
  const store = Store.open(':memory:');
  const first = new WorkerLease(store.sql, { plannerVersion: 1 });
  const second = new WorkerLease(store.sql, { plannerVersion: 1 });
  if (firstJoined) await first.reap();
  await second.reap();
  const a = driverOf(image, owner, first);
  const b = driverOf(image, owner, second);
  const end = async () => {
    for (const s of await b.list()) await b.destroy(s.id).catch(() => undefined);
    await a.close();
    await b.close();
    await first.close();
    await second.close();
    await store.close();
  };
  return { first, a, b, end };
}

describe.skipIf(skip)('desktops of workers sharing a store and a Docker engine', () => {
  it("a live worker's desktop is left alone by the others; once that worker is gone the next owner of its task adopts it as it was", async () => {
    const { first, a, b, end } = await twoWorkers(`test-workers-${process.pid}`);
    try {
      const sandbox = await a.create({ task: 'tsk_SHARED' });
      await sandbox.call('files.write', { path: 'mark.txt', data: 'left by the first worker' });
      // Same process, same pid: only the worker labels tell the two apart.
      expect(await b.adopt('tsk_SHARED')).toBeUndefined();
      expect(await b.reapOrphans()).toEqual([]);

      sandbox.detach(); // the first worker goes away, leaving the container running
      await first.close();
      const adopted = await b.adopt('tsk_SHARED');
      expect(adopted?.id).toBe(sandbox.id);
      expect((await adopted!.call('files.read', { path: 'mark.txt' })).data).toBe('left by the first worker');
      await adopted!.destroy();
      expect(await b.list()).toEqual([]);
    } finally {
      await end();
    }
  }, 600_000);

  it("a dead worker's idle desktop is reaped by the next, a live worker's is kept", async () => {
    const { first, a, b, end } = await twoWorkers(`test-workers-reap-${process.pid}`);
    try {
      const idle = await a.create();
      expect(await b.reapOrphans()).toEqual([]);
      idle.detach();
      await first.close();
      expect(await b.reapOrphans()).toEqual([idle.name]);
      expect(await b.list()).toEqual([]);
    } finally {
      await end();
    }
  }, 600_000);

  it('a desktop made before its worker ever claimed a task (a warm pool at start) is that live worker\'s, not an orphan', async () => {
    const { a, b, end } = await twoWorkers(`test-workers-warm-${process.pid}`, { firstJoined: false });
    try {
      const warm = await a.create();
      expect(await b.reapOrphans()).toEqual([]);
      expect((await b.list()).map((s) => s.name)).toEqual([warm.name]);
    } finally {
      await end();
    }
  }, 600_000);
});
