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
});
