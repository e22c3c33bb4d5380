import { describe, expect, it } from 'vitest';
import { SandboxDriver } from '../../../../electron/capabilities/sandbox/sandboxDriver.js';
import { WarmPool } from '../../../../electron/capabilities/sandbox/warmPool.js';
import { missing } from '../../../support/requirements.js';
import { desktopImage } from '../../../support/sandboxImage.js';

const skip = missing('docker');

describe.skipIf(skip)('warm pool', () => {
  it('hands out a ready sandbox, refills, and destroys the idle ones on close', async () => {
    const driver = new SandboxDriver({ image: await desktopImage(), owner: `test-pool-${process.pid}` });
    const pool = new WarmPool(driver, 1, 0);
    try {
      pool.fill();
      await pool.whenFull();
      expect(pool.available).toBe(1);
      const sandbox = await pool.acquire();
      expect((await sandbox.call('health', {})).ok).toBe(true); // ready: no waiting on the display
      await expect.poll(() => pool.available, { timeout: 60_000 }).toBe(1);
      expect(await driver.list()).toHaveLength(2);
      await sandbox.destroy();
      await pool.close();
      expect(await driver.list()).toEqual([]);
    } finally {
      await pool.close();
      await driver.close();
    }
  }, 600_000);

  it('a warm sandbox assigned to a task is found by that task later, adopted as it was, and dropped when removed from outside', async () => {
    const owner = `test-adopt-${process.pid}`;
    const image = await desktopImage();
    const first = new SandboxDriver({ image, owner });
    const second = new SandboxDriver({ image, owner }); // stands in for the next runtime process
    const pool = new WarmPool(first, 1, 0);
    try {
      pool.fill();
      await pool.whenFull();
      const sandbox = await pool.acquire();
      await first.assign(sandbox, 'tsk_ADOPTME');
      expect((await first.list()).find((s) => s.id === sandbox.id)).toMatchObject({ task: 'tsk_ADOPTME', name: sandbox.name });
      await sandbox.call('files.write', { path: 'mark.txt', data: 'left by the first runtime' });

      expect(await second.adopt('tsk_OTHER')).toBeUndefined();
      const adopted = await second.adopt('tsk_ADOPTME');
      expect(adopted?.id).toBe(sandbox.id);
      expect((await adopted!.call('files.read', { path: 'mark.txt' })).data).toBe('left by the first runtime');
      // Reaping keeps a task's desktop while the task may resume (this process is alive here, so
      // nothing is an orphan; the keep rule itself is exercised end to end in test/e2e/sandbox).

      // A ready sandbox removed behind the pool's back is not handed out.
      await expect.poll(() => pool.available, { timeout: 60_000 }).toBe(1);
      const [idle] = (await first.list()).filter((s) => !s.task);
      await second.destroy(idle!.name);
      await expect.poll(async () => (await first.list()).some((s) => s.id === idle!.id), { timeout: 20_000 }).toBe(false);
      const fresh = await pool.acquire();
      expect(fresh.id).not.toBe(idle!.id);
      expect((await fresh.call('health', {})).ok).toBe(true);
      await fresh.destroy();
      await adopted!.destroy();
    } finally {
      await pool.close();
      await first.close();
      await second.close();
      for (const s of await first.list()) await first.destroy(s.id).catch(() => undefined);
    }
  }, 600_000);
});
